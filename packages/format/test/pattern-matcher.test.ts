// The pattern matcher: it means what the RegExps it replaced meant on ordinary patterns (checked
// against those RegExps, kept here as the reference, on random small patterns and texts), its step
// count stays within 4 * (states + 1) * (text.length + 1) on random and adversarial patterns and
// texts, runs of stars collapse, and a pattern past the state budget is INVALID_ARGUMENT naming it.
// A set of globs runs as one automaton that answers what its globs answer alone, reads a path once,
// and is refused, naming the argument, once building its sets of states costs past the budget.
import { describe, expect, it } from 'vitest';
import { compileCamelCase, compileGlob, compileGlobSet, compileWildcard, matcherSteps, MAX_PATTERN_STATES, PATH_MATCH_BUDGET, pathFilter, type PatternMatcher } from '../src/index.ts';
import { thrown } from './support/thrown.ts';

/** The RegExps the matcher replaced; fine as a reference on short texts, catastrophic on long ones. */
const reference = {
  glob(glob: string): RegExp {
    const anchored = glob.includes('/') && !glob.startsWith('**/');
    const body = glob.replace(/^\//, '').split(/(\*\*\/|\*\*|\*|\?)/).map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }).join('');
    return new RegExp(`${anchored ? '^' : '(^|/)'}${body}(/.*)?$`);
  },
  wildcard(query: string): RegExp {
    return new RegExp(`^${query.split('*').map(escape).join('.*').replace(/\\\?/g, '.')}$`, 'i');
  },
  camelCase(query: string): RegExp {
    const body = [...query].map((ch, i) => (i === 0 ? escape(ch) : /[A-Z]/.test(ch) ? `.*?${ch}` : `[^A-Z]*?${escape(ch)}`)).join('');
    return new RegExp(`^${body}`);
  },
};

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** mulberry32: a seeded generator, so a failure names a reproducible case. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function stringOf(next: () => number, parts: readonly string[], maxParts: number): string {
  const count = Math.floor(next() * (maxParts + 1));
  let text = '';
  for (let i = 0; i < count; i++) text += parts[Math.floor(next() * parts.length)];
  return text;
}

const GLOB_PARTS = ['a', 'b', '.', '/', '*', '**', '**/', '?', '[', '('];
const PATH_PARTS = ['a', 'b', '.', '/', '[', '('];
const NAME_PARTS = ['a', 'A', 'b', 'B', '_', '.', '1'];
const WILDCARD_PARTS = [...NAME_PARTS, '*', '?'];

const kinds = {
  glob: { compile: (p: string) => compileGlob(p), patternParts: GLOB_PARTS, textParts: PATH_PARTS },
  wildcard: { compile: compileWildcard, patternParts: WILDCARD_PARTS, textParts: NAME_PARTS },
  camelCase: { compile: compileCamelCase, patternParts: NAME_PARTS, textParts: NAME_PARTS },
} as const;

function expectWithinBound(matcher: PatternMatcher, text: string): boolean {
  const before = matcher.steps;
  const found = matcher.test(text);
  const steps = matcher.steps - before;
  const bound = 4 * (matcher.states + 1) * (text.length + 1);
  if (steps > bound) expect.fail(`${JSON.stringify(matcher.pattern)} on ${JSON.stringify(text.slice(0, 60))}…: ${steps} steps > ${bound}`);
  return found;
}

describe('pattern matcher semantics', () => {
  for (const [kind, { compile, patternParts, textParts }] of Object.entries(kinds)) {
    it(`matches what the ${kind} RegExp matched, on 3,000 random patterns`, () => {
      const next = random(kind.length * 7919);
      for (let p = 0; p < 3000; p++) {
        const pattern = stringOf(next, patternParts, 6) || 'a';
        const matcher = compile(pattern);
        const regExp = reference[kind as keyof typeof reference](pattern);
        for (let t = 0; t < 20; t++) {
          const text = stringOf(next, textParts, 8);
          if (matcher.test(text) !== regExp.test(text)) expect.fail(`${kind} ${JSON.stringify(pattern)} on ${JSON.stringify(text)}: RegExp says ${regExp.test(text)}`);
        }
      }
    });
  }

  it('keeps the glob rules: ** crosses directories, * and ? stay in one, no slash means any depth, a directory covers its files', () => {
    const cases: [string, string, boolean][] = [
      ['src/**', 'src/a/b.ts', true], ['src/*', 'src/a/b.ts', true], ['src/*.ts', 'src/a/b.ts', false],
      ['*.ts', 'deep/down/x.ts', true], ['x.t?', 'a/x.ts', true], ['x.t?', 'a/x.t/s', false], ['x.t?', 'a/x.ts/y', true], ['src', 'src/a.ts', true],
      ['src', 'lib/src', true], ['/src', 'lib/src', false], ['src/a', 'lib/src/a', false], ['**/gen/**', 'gen/x', true],
      ['a/**/b', 'a/b', true], ['a/**/b', 'a/x/y/b', true], ['a/**b', 'a/x/yb', true], ['[ab].ts', 'a.ts', false], ['[ab].ts', '[ab].ts', true],
    ];
    for (const [glob, path, expected] of cases) expect([glob, path, compileGlob(glob).test(path)]).toEqual([glob, path, expected]);
    expect(compileGlob('packages/*', { whole: true }).test('packages/a/b')).toBe(false);
    expect(compileGlob('packages/**', { whole: true }).test('packages/a/b')).toBe(true);
    expect(compileGlob('a', { whole: true }).test('x/a')).toBe(false);
  });

  it('filters paths by includes and ! excludes', () => {
    const keep = pathFilter(['src/**', '!**/*.test.ts']);
    expect(['src/a.ts', 'src/a.test.ts', 'lib/b.ts'].filter(keep)).toEqual(['src/a.ts']);
    expect(['a', 'b'].filter(pathFilter(['!a']))).toEqual(['b']);
    expect(['a', 'b'].filter(pathFilter([]))).toEqual(['a', 'b']);
  });

  it('tests a path once per distinct glob, however often it is asked and however often a glob repeats', () => {
    const glob = `${'**/'.repeat(100)}*Z*`;
    const path = `${'dir/'.repeat(20)}file.ts`;
    const keep = pathFilter(Array.from({ length: 64 }, () => glob));
    const before = matcherSteps();
    for (let i = 0; i < 100; i++) expect(keep(path)).toBe(false);
    expect(matcherSteps() - before).toBeLessThanOrEqual(4 * (compileGlob(glob).states + 1) * (path.length + 1));
  });

  it('matches a set of globs as one automaton exactly when any of them matches alone, on 2,000 random sets', () => {
    const next = random(20261202);
    for (let n = 0; n < 2000; n++) {
      const globs = Array.from({ length: 1 + Math.floor(next() * 6) }, () => stringOf(next, GLOB_PARTS, 6) || 'a');
      const set = compileGlobSet(globs);
      const each = globs.map((g) => compileGlob(g));
      for (let t = 0; t < 20; t++) {
        const path = stringOf(next, PATH_PARTS, 8);
        if (set.test(path) !== each.some((m) => m.test(path))) expect.fail(`${JSON.stringify(globs)} on ${JSON.stringify(path)}: alone, ${each.some((m) => m.test(path))}`);
      }
    }
  });

  it('reads a path once for 64 globs: one step a character once the sets are met', () => {
    const globs = Array.from({ length: 64 }, (_, i) => `${'*a'.repeat(60)}Z${i}`);
    const paths = Array.from({ length: 200 }, (_, i) => `packages/pkg-${i % 7}/src/handlers/generated/name-${i}.ts`);
    const keep = pathFilter(globs);
    expect(paths.filter(keep)).toEqual([]);
    const again = pathFilter(globs);
    paths.slice(0, 50).forEach(again); // meets the sets
    const before = matcherSteps();
    const rest = paths.slice(50);
    expect(rest.filter(again)).toEqual([]);
    expect(matcherSteps() - before).toBeLessThanOrEqual(rest.reduce((n, p) => n + p.length, 0) * 2);
  });

  it('refuses a glob set whose sets of states cost more than PATH_MATCH_BUDGET to build, naming the argument', () => {
    const next = random(7);
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789-_.';
    const globs = Array.from({ length: 64 }, () => `${Array.from({ length: 120 }, () => `**${letters[Math.floor(next() * letters.length)]}`).join('')}Q`);
    const keep = pathFilter(globs, 'paths');
    const paths = Array.from({ length: 4000 }, (_, i) => `packages/m-${i % 40}/src/components/subsystem-${i % 200}/internal/handlers/file-with-a-descriptive-name-${i}.ts`);
    const before = matcherSteps();
    const error = thrown(() => paths.forEach(keep));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', data: { argument: 'paths', globs: 64, budget: PATH_MATCH_BUDGET } });
    expect(error.message).toMatch(/^The 64 globs of `paths` need more matching work than one call may do/);
    expect(error.hint).toMatch(/^Narrow `paths`: fewer globs/);
    // Stopped at the budget: what it did is the budget plus one set's work, not the whole scan's.
    expect(matcherSteps() - before).toBeLessThan(PATH_MATCH_BUDGET + paths.length * 200 + 2 * 64 * 257);
  });

  it('is case-insensitive in wildcard mode only', () => {
    expect(compileWildcard('order*IMPL').test('OrderRepositoryImpl')).toBe(true);
    expect(compileWildcard('ÉTÉ*').test('étéSummer')).toBe(true);
    expect(compileCamelCase('oSvc').test('OrderService')).toBe(false);
    expect(compileGlob('SRC/**').test('src/a.ts')).toBe(false);
  });
});

describe('pattern matcher work', () => {
  it('collapses runs of stars', () => {
    expect(compileWildcard(`${'*'.repeat(16)}Z`).states).toBe(2);
    expect(compileGlob(`${'*'.repeat(22)}Z`).states).toBe(2);
    expect(compileGlob('**/**/**/x').states).toBe(3);
    expect(compileWildcard('*?*?*?').states).toBe(4);
    expect(compileGlob('a/*?*?*').states).toBe(5);
  });

  for (const [kind, { compile, patternParts, textParts }] of Object.entries(kinds)) {
    it(`stays within 4 * (states + 1) * (text + 1) steps on random ${kind} patterns and texts`, () => {
      const next = random(kind.length * 104729);
      for (let p = 0; p < 400; p++) {
        const matcher = compile(stringOf(next, patternParts, 60) || 'a');
        for (let t = 0; t < 10; t++) expectWithinBound(matcher, stringOf(next, textParts, 300));
      }
    });
  }

  it('reads a character in one step once its set of live states was met (the lazy DFA), with the same answers', () => {
    // 80 live states per character: the plain simulation costs hundreds of steps per character.
    const glob = compileGlob(`${'**e'.repeat(40)}x`);
    const paths = Array.from({ length: 50 }, (_, i) => `packages/e${i}/src/${'e'.repeat(i)}x`);
    const first = paths.map((p) => glob.test(p));
    const before = glob.steps;
    expect(paths.map((p) => glob.test(p))).toEqual(first);
    expect(glob.steps - before).toBeLessThanOrEqual(paths.reduce((n, p) => n + p.length, 0));
    // Forty e's, then the x that ends the path: `packages/e<i>/` holds two, so i from 38 to 49.
    expect(first.flatMap((found, i) => (found ? [i] : []))).toEqual(Array.from({ length: 12 }, (_, k) => 38 + k));
  });

  it('stays within the bound on adversarial patterns and texts, and answers them right', () => {
    const patterns: [PatternMatcher, string, boolean][] = [];
    const long = 'a'.repeat(5000);
    const wild = (p: string, text: string, expected: boolean) => patterns.push([compileWildcard(p), text, expected]);
    const glob = (p: string, text: string, expected: boolean) => patterns.push([compileGlob(p), text, expected]);
    const camel = (p: string, text: string, expected: boolean) => patterns.push([compileCamelCase(p), text, expected]);
    wild(`${'*'.repeat(16)}Z`, long, false);
    wild(`${'*'.repeat(16)}Z`, `${long}Z`, true);
    wild('*a'.repeat(120), long, true);
    wild(`${'*a'.repeat(120)}b`, long, false);
    wild(`${'a*'.repeat(120)}b`, long, false);
    wild('*?'.repeat(120), long.slice(0, 119), false);
    wild(`*${'a'.repeat(250)}b`, long, false);
    glob(`${'*'.repeat(22)}Z`, `${'a/'.repeat(2500)}a`, false);
    glob(`${'*'.repeat(22)}Z`, `${'a/'.repeat(2500)}Z`, true);
    glob('**/'.repeat(80) + 'x', `${'a/'.repeat(2500)}y`, false);
    glob('*/'.repeat(120) + 'x', `${'a/'.repeat(2500)}y`, false);
    glob('**/a'.repeat(60) + 'b', `${'a/'.repeat(2500)}a`, false);
    glob(`/${'a*'.repeat(120)}/b`, long, false);
    camel(`A${'Ab'.repeat(120)}`, `A${'A'.repeat(3000)}${'b'.repeat(2000)}`, false);
    camel(`a${'a'.repeat(200)}B`, long, false);
    camel(`A${'Ab'.repeat(100)}`, `A${'Ab'.repeat(2000)}`, true);
    for (const [matcher, text, expected] of patterns) {
      expect(matcher.states).toBeLessThanOrEqual(MAX_PATTERN_STATES);
      expect([matcher.pattern.slice(0, 30), expectWithinBound(matcher, text)]).toEqual([matcher.pattern.slice(0, 30), expected]);
    }
  });

  it('refuses a pattern past the state budget as INVALID_ARGUMENT naming it', () => {
    const pattern = `*${'ab?'.repeat(100)}`;
    for (const compile of [compileWildcard, compileCamelCase, (p: string) => compileGlob(p)]) {
      const error = thrown(() => compile(pattern));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain(pattern.slice(0, 40));
      expect(error.message).toMatch(/too complex/);
      expect(error.hint).toMatch(/shorter pattern/);
      expect(error.data).toMatchObject({ pattern, maxStates: MAX_PATTERN_STATES });
    }
    expect(compileWildcard('a'.repeat(MAX_PATTERN_STATES)).states).toBe(MAX_PATTERN_STATES);
    // A run of stars costs one state however long it is.
    expect(compileWildcard(`${'*'.repeat(400)}${'a'.repeat(MAX_PATTERN_STATES - 1)}`).states).toBe(MAX_PATTERN_STATES);
  });
});
