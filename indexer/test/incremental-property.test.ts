// The promise of incremental builds (issue #31), as a property: after any sequence of edits, the
// index built from the previous commit's index equals the full build of the same commit, shard for
// shard and byte for byte, and its manifest differs only in builtAt and build. Seeded random edits
// on a TypeScript fixture: lines inserted (positions shift), functions added, used from other files,
// renamed, their signatures and bodies changed, their inferred results used two files away, files added, removed and renamed, re-export barrels edited
// (an `export *` added, a name re-exported, a re-export removed, a name used through the barrel),
// global declarations and a JavaScript script touched (which must build in full); on a Java and Kotlin
// fixture (walked in full), declarations moved, added, removed and renamed. Each step builds
// from the previous step's incremental index, so errors would compound; every other sequence walks
// TypeScript on a second thread (ts/off-thread-walk.ts), the others in process. SEXTANT_INCREMENTAL_SEQUENCES
// sets how many sequences run (the suite runs a few; the issue's 500 run the same test with it set).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '@sextant/format';
import { seededRandom } from '../bench/references-accuracy.ts';
import { buildIndex } from '../src/build-command.ts';
import type { CollectedSymbol } from '../src/index-collector.ts';
import { readPreviousIndex } from '../src/incremental/previous-index.ts';
import { Progress } from '../src/progress.ts';
import { commitAll, fixtureRepo } from './support/fixture-repo.ts';

const SEQUENCES = Number(process.env.SEXTANT_INCREMENTAL_SEQUENCES ?? 6);
const STEPS = 4;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-incremental-property-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 60_000);

function sources(dir: string, under = '.'): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, under))) {
    if (name === '.git') continue;
    const path = under === '.' ? name : `${under}/${name}`;
    if (statSync(join(dir, path)).isDirectory()) out.push(...sources(dir, path));
    else if (/\.([jt]sx?|java|kt)$/.test(name)) out.push(path);
  }
  return out.sort();
}

/** An import specifier from one source file to another. */
function specifier(from: string, to: string): string {
  const path = relative(dirname(from), to).replace(/\.[jt]sx?$/, '');
  return path.startsWith('.') ? path : `./${path}`;
}

type Edit = (dir: string, pick: <T>(list: readonly T[]) => T, n: number) => string | undefined;

const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
const write = (dir: string, path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const tsFiles = (dir: string) => sources(dir).filter((p) => p.endsWith('.ts'));
const withGen = (dir: string) => tsFiles(dir).flatMap((path) => [...read(dir, path).matchAll(/export function (gen\d+)\(/g)].map((m) => ({ path, name: m[1]! })));

/** A comment line inserted into one of `files`: the positions after it shift, nothing else changes. */
const insertLine = (files: (dir: string) => string[]): Edit => (dir, pick, n) => {
  const path = pick(files(dir));
  const lines = read(dir, path).split('\n');
  lines.splice(Math.floor(pick([0, 0.5, 0.99]) * lines.length), 0, `// edit ${n}`);
  write(dir, path, lines.join('\n'));
  return `insert a line into ${path}`;
};

/** One of `files` removed: what used it breaks. */
const removeFile = (files: (dir: string) => string[]): Edit => (dir, pick) => {
  const path = pick(files(dir));
  rmSync(join(dir, path));
  return `remove ${path}`;
};

const jvmFiles = (dir: string) => sources(dir).filter((p) => /\.(java|kt)$/.test(p));

/** Java and Kotlin are walked in full by an incremental build: edits that move, add and remove their declarations. */
const JVM_EDITS: Record<string, Edit> = {
  'insert-line': insertLine(jvmFiles),
  'add-function': (dir, pick, n) => {
    const path = pick(jvmFiles(dir).filter((p) => p.endsWith('.kt')));
    write(dir, path, `${read(dir, path)}\nfun gen${n}(a: Int): Int = a + ${n}\n`);
    return `add gen${n} to ${path}`;
  },
  'remove-file': removeFile(jvmFiles),
  'rename-file': (dir, pick, n) => {
    const path = pick(jvmFiles(dir));
    const to = path.replace(/(\.\w+)$/, `Moved${n}$1`);
    renameSync(join(dir, path), join(dir, to));
    return `rename ${path} to ${to}`;
  },
  'ts-beside': (dir, _pick, n) => {
    write(dir, `web/page-${n}.ts`, `export const page${n} = ${n};\n`);
    return `add web/page-${n}.ts`;
  },
};

const EDITS: Record<string, Edit> = {
  'insert-line': insertLine(tsFiles),
  'add-function': (dir, pick, n) => {
    const path = pick(tsFiles(dir));
    write(dir, path, `${read(dir, path)}\nexport function gen${n}(a: number): number {\n  return a + ${n};\n}\n`);
    return `add gen${n} to ${path}`;
  },
  'use-function': (dir, pick, n) => {
    const target = withGen(dir);
    if (target.length === 0) return undefined;
    const { path: from, name } = pick(target);
    const path = pick(tsFiles(dir).filter((p) => p !== from));
    write(dir, path, `import { ${name} as use${n}Of } from '${specifier(path, from)}';\n${read(dir, path)}\nexport const use${n} = use${n}Of(${n});\n`);
    return `use ${name} of ${from} in ${path}`;
  },
  'change-signature': (dir, pick) => {
    const target = withGen(dir);
    if (target.length === 0) return undefined;
    const { path, name } = pick(target);
    write(dir, path, read(dir, path).replace(`export function ${name}(a: number): number {`, `export function ${name}(a: string): string {`));
    return `change the signature of ${name} in ${path}`;
  },
  'change-body': (dir, pick, n) => {
    const target = withGen(dir);
    if (target.length === 0) return undefined;
    const { path, name } = pick(target);
    const text = read(dir, path);
    const at = text.indexOf(`export function ${name}(`);
    const body = text.indexOf('return ', at);
    write(dir, path, `${text.slice(0, body)}return ${n} + ${text.slice(body + 'return '.length)}`);
    return `change the body of ${name} in ${path}`;
  },
  'use-inferred': (dir, pick, n) => {
    // A declaration whose type is inferred from another file's inferred one: a signature change two files away reaches it.
    const target = tsFiles(dir).flatMap((path) => [...read(dir, path).matchAll(/export const (use\d+) = /g)].map((m) => ({ path, name: m[1]! })));
    if (target.length === 0) return undefined;
    const { path: from, name } = pick(target);
    const path = pick(tsFiles(dir).filter((p) => p !== from));
    write(dir, path, `import { ${name} as chain${n}Of } from '${specifier(path, from)}';\n${read(dir, path)}\nexport const chain${n} = { value: chain${n}Of };\nexport const chained${n}: number = chain${n}.value;\n`);
    return `use ${name} of ${from} in ${path}`;
  },
  'rename-declaration': (dir, pick) => {
    const target = withGen(dir);
    if (target.length === 0) return undefined;
    const { path, name } = pick(target);
    write(dir, path, read(dir, path).replace(`export function ${name}(`, `export function ${name}x(`));
    return `rename ${name} in ${path}`;
  },
  'add-file': (dir, pick, n) => {
    const target = withGen(dir);
    const path = `src/${pick(['', 'orders/', 'extra/'])}added-${n}.ts`;
    const use = target.length ? pick(target) : undefined;
    write(dir, path, `${use ? `import { ${use.name} } from '${specifier(path, use.path)}';\n` : ''}export const added${n} = ${use ? `${use.name}(${n})` : n};\n`);
    return `add ${path}`;
  },
  'remove-file': removeFile(tsFiles),
  'rename-file': (dir, pick, n) => {
    const path = pick(tsFiles(dir));
    const to = `${dirname(path)}/moved-${n}.ts`;
    renameSync(join(dir, path), join(dir, to));
    return `rename ${path} to ${to}`;
  },
  'edit-barrel': (dir, pick) => {
    const path = 'src/index.ts';
    const module = pick(tsFiles(dir).filter((p) => p !== path));
    write(dir, path, `${existsSync(join(dir, path)) ? read(dir, path) : ''}export * from '${specifier(path, module)}';\n`);
    return `re-export ${module} from ${path}`;
  },
  'reexport-named': (dir, pick, n) => {
    const target = withGen(dir);
    if (target.length === 0 || !existsSync(join(dir, 'src/index.ts'))) return undefined;
    const { path: from, name } = pick(target);
    write(dir, 'src/index.ts', `${read(dir, 'src/index.ts')}export { ${name} as re${n} } from '${specifier('src/index.ts', from)}';\n`);
    return `re-export ${name} of ${from} from src/index.ts as re${n}`;
  },
  'use-through-barrel': (dir, pick, n) => {
    // A name the barrel re-exports by name, used by another file through the barrel.
    if (!existsSync(join(dir, 'src/index.ts'))) return undefined;
    const names = [...read(dir, 'src/index.ts').matchAll(/export \{ (?:\w+ as )?(\w+) \} from/g)].map((m) => m[1]!);
    if (names.length === 0) return undefined;
    const name = pick(names);
    const path = pick(tsFiles(dir).filter((p) => p !== 'src/index.ts'));
    write(dir, path, `import { ${name} as via${n} } from '${specifier(path, 'src/index.ts')}';\n${read(dir, path)}\nexport const through${n} = [via${n}];\n`);
    return `use ${name} through src/index.ts in ${path}`;
  },
  'remove-reexport': (dir, pick) => {
    if (!existsSync(join(dir, 'src/index.ts'))) return undefined;
    const lines = read(dir, 'src/index.ts').split('\n');
    const at = lines.flatMap((line, i) => (/^export .* from /.test(line) ? [i] : []));
    if (at.length === 0) return undefined;
    const removed = lines.splice(pick(at), 1)[0]!;
    write(dir, 'src/index.ts', lines.join('\n'));
    return `remove \`${removed}\` from src/index.ts`;
  },
  'declare-global': (dir, pick, n) => {
    const path = pick(tsFiles(dir));
    write(dir, path, `${read(dir, path)}\nexport {};\ndeclare global {\n  interface Global${n} { a: number }\n}\n`);
    return `declare a global in ${path}`;
  },
  'package-version': (dir, _pick, n) => {
    write(dir, 'package.json', `${JSON.stringify({ name: 'fixture', version: `1.0.${n}`, private: true }, null, 2)}\n`);
    return `release 1.0.${n} (package.json)`;
  },
  'edit-script': (dir, _pick, n) => {
    const path = 'src/legacy.js';
    if (!existsSync(join(dir, path))) return undefined;
    write(dir, path, `${read(dir, path)}\nexport function legacy${n}() {\n  return ${n};\n}\n`);
    return `edit ${path}`;
  },
};

/** The symbols one index has and the other lacks, and those whose references differ, for a failure's message. */
async function symbolDifference(full: string, incremental: string): Promise<string> {
  const [a, b] = await Promise.all([full, incremental].map(async (dir) => (await (await readPreviousIndex(dir)).records()).rest()));
  const describe = (s: CollectedSymbol) => `${s.info.kind} ${s.info.qname} (${s.info.defs[0]?.[0] ?? s.info.external?.package ?? '?'}; ${s.refs.length} refs, ${s.edges.length} edges)`;
  const only = (x: typeof a, y: typeof a) => [...x.symbols.values()].filter((s) => !y.symbols.has(s.info.key)).map(describe);
  const changed = [...a.symbols.values()].filter((s) => b.symbols.has(s.info.key) && JSON.stringify(s) !== JSON.stringify(b.symbols.get(s.info.key))).map(describe);
  return `only in the full build: ${only(a, b).join(', ') || 'none'}; only in the incremental: ${only(b, a).join(', ') || 'none'}; different: ${changed.join(', ') || 'none'}`;
}

/** Every shard's bytes, and the manifest but for what says when and how it was built. */
function snapshot(out: string, manifest: Manifest): { shards: Record<string, string>; manifest: unknown } {
  const { builtAt: _builtAt, build: _build, ...rest } = manifest;
  return { shards: Object.fromEntries(Object.entries(manifest.shards).map(([name, entry]) => [name, `${entry.sha256}:${readFileSync(join(out, name)).byteLength}`])), manifest: rest };
}

describe('an incremental build', () => {
  it.each([
    ['TypeScript', 'ts-basic', EDITS, SEQUENCES],
    ['Java and Kotlin', 'jvm-shop', JVM_EDITS, Math.max(1, Math.ceil(SEQUENCES / 3))],
  ] as const)('equals the full build of the same commit after every step of seeded edit sequences (%s)', { timeout: 3_600_000 }, async (_what, fixture, edits, sequences) => {
    const modes = new Map<string, number>();
    for (let seed = 1; seed <= sequences; seed++) {
      const random = seededRandom(seed);
      const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const repo = fixtureRepo(new URL(`../../test/fixtures/${fixture}/`, import.meta.url).pathname);
      let previous = join(scratch, `${fixture}-${seed}-0`);
      try {
        const build = (out: string, from?: string) => buildIndex({ repo: repo.dir, commit: 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), ...(from ? { from, maxChangedShare: 1, walkOffThread: seed % 2 === 0 } : {}) });
        await build(previous);
        const done: string[] = [];
        for (let step = 1; step <= STEPS; step++) {
          let edit: string | undefined;
          while (!edit) edit = edits[pick(Object.keys(edits))]!(repo.dir, pick, seed * 100 + step);
          done.push(edit);
          commitAll(repo.dir, edit);
          const full = join(scratch, `${fixture}-${seed}-${step}-full`);
          const incremental = join(scratch, `${fixture}-${seed}-${step}`);
          const expected = snapshot(full, await build(full));
          const manifest = await build(incremental, previous);
          const mode = manifest.build?.mode === 'full' ? `full: ${manifest.build.reason?.replace(/\d+/g, 'N')}` : 'incremental';
          modes.set(mode, (modes.get(mode) ?? 0) + 1);
          const actual = snapshot(incremental, manifest);
          if (JSON.stringify(actual) !== JSON.stringify(expected)) {
            expect(actual, `seed ${seed}, after: ${done.join('; ')}; ${await symbolDifference(full, incremental)}`).toEqual(expected);
          }
          // Each step's indexes go once the next step no longer needs them: hundreds of sequences leave nothing behind.
          rmSync(full, { recursive: true, force: true });
          rmSync(previous, { recursive: true, force: true });
          previous = incremental;
        }
      } finally {
        rmSync(previous, { recursive: true, force: true });
        repo.cleanup();
      }
    }
    process.stderr.write(`incremental property (${fixture}): ${sequences} sequences of ${STEPS} steps; builds by mode: ${JSON.stringify(Object.fromEntries(modes))}\n`);
    // Most steps must take the incremental path, or the property says little.
    const incremental = modes.get('incremental') ?? 0;
    expect(incremental, JSON.stringify([...modes])).toBeGreaterThan((sequences * STEPS) / 2);
  });
});
