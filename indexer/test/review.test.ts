// `indexer review` on real git repositories: refs resolved to shas, each commit indexed once into
// .sextant/indexes/<sha>/ (a complete index reused, a broken one rebuilt, no build leaving a
// directory that looks like an index), .sextant/ kept out of git through .git/info/exclude, and a
// repository that tracks .sextant/ refused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shortCommit } from '@sextant/format';
import { main } from '../src/cli.ts';
import { prepareReview, reviewOutput } from '../src/review-command.ts';
import { Progress } from '../src/progress.ts';
import { commitAll, fixtureRepo, git, type FixtureRepo } from './support/fixture-repo.ts';

const TSCONFIG = '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n';
let repo: FixtureRepo;
let base: string;
let head: string;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-review-'));

const options = (extra: Partial<Parameters<typeof prepareReview>[0]> = {}) => ({
  base: 'main~1', head: 'HEAD', repo: join(repo.dir, 'src'), maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), ...extra,
});

beforeAll(() => {
  repo = fixtureRepo();
  mkdirSync(join(repo.dir, 'src'));
  writeFileSync(join(repo.dir, 'src/price.ts'), 'export function price(n: number): number { return n * 2; }\n');
  base = commitAll(repo.dir, 'base');
  writeFileSync(join(repo.dir, 'src/price.ts'), 'export function price(n: number, vat = 0): number { return n * 2 + vat; }\n');
  writeFileSync(join(repo.dir, 'src/cart.ts'), 'import { price } from "./price";\nexport const total = price(3);\n');
  head = commitAll(repo.dir, 'head');
});

afterAll(() => {
  repo.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * change_impact of `indexer review` on a repository of its own: `base` committed, then `head` (the
 * files it replaces) committed on top; the repository is removed afterwards.
 */
/** Each introduced problem as `path:line TScode cause qualifiedName` (the change it is attributed to). */
function causesOf(impact: any): string[] {
  return impact.introducedProblems.map((p: { path: string; line: number; code: number; cause: string; symbolId: string }) => {
    const symbol = impact.impacts.find((i: any) => i.symbol.symbolId === p.symbolId)?.symbol.qualifiedName;
    return `${p.path}:${p.line} TS${p.code} ${p.cause} ${symbol}`;
  });
}

async function impactOf(name: string, base: Record<string, string>, head: Record<string, string>): Promise<any> {
  const repository = fixtureRepo();
  try {
    const write = (files: Record<string, string>) => {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(repository.dir, path, '..'), { recursive: true });
        writeFileSync(join(repository.dir, path), text);
      }
    };
    write(base);
    const before = commitAll(repository.dir, 'base');
    write(head);
    const after = commitAll(repository.dir, 'head');
    const prepared = await prepareReview({ base: before, head: after, repo: repository.dir, outRoot: join(scratch, name), maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
    return JSON.parse(await reviewOutput(prepared, 'json')).change_impact;
  } finally {
    repository.cleanup();
  }
}

describe('indexer review: the indexes of base and head', { timeout: 120_000 }, () => {
  it('resolves the refs to shas and builds each commit into .sextant/indexes/<sha>, once', async () => {
    const first = await prepareReview(options());
    const indexes = join(repo.dir, '.sextant/indexes');
    expect(first).toMatchObject({
      root: repo.dir, outRoot: indexes,
      base: { commit: base, dir: join(indexes, base), built: true },
      head: { commit: head, dir: join(indexes, head), built: true },
    });
    expect(JSON.parse(readFileSync(join(indexes, head, 'manifest.json'), 'utf8')).commit).toBe(head);
    // Nothing but the two indexes: the build directories are gone.
    expect(readdirSync(indexes).sort()).toEqual([base, head].sort());
    const built = statSync(join(indexes, base, 'manifest.json')).mtimeMs;
    const again = await prepareReview(options({ base, head: head.slice(0, 10) }));
    expect(again.base).toMatchObject({ commit: base, built: false });
    expect(again.head).toMatchObject({ commit: head, built: false });
    expect(statSync(join(indexes, base, 'manifest.json')).mtimeMs).toBe(built);
  });

  it('rebuilds an index that is incomplete, corrupt or of another commit', async () => {
    const indexes = join(repo.dir, '.sextant/indexes');
    await prepareReview(options());
    rmSync(join(indexes, base, 'manifest.sha256'));
    writeFileSync(join(indexes, base, 'manifest.json'), '{ "truncated": ');
    expect((await prepareReview(options())).base).toMatchObject({ commit: base, built: true });
    expect(JSON.parse(readFileSync(join(indexes, base, 'manifest.json'), 'utf8')).commit).toBe(base);
    // The head's index copied under the base's name is no index of the base.
    rmSync(join(indexes, base), { recursive: true });
    execFileSync('cp', ['-r', join(indexes, head), join(indexes, base)]);
    expect((await prepareReview(options())).base).toMatchObject({ commit: base, built: true });
    expect(JSON.parse(readFileSync(join(indexes, base, 'manifest.json'), 'utf8')).commit).toBe(base);
  });

  it('fails on a ref that names no commit or an out root it cannot use, and ignores what a killed build left', async () => {
    const outRoot = join(scratch, 'failing');
    await expect(prepareReview(options({ outRoot, base: 'no-such-ref' }))).rejects.toMatchObject({ code: 'UNKNOWN_COMMIT' });
    expect(existsSync(outRoot)).toBe(false);
    const failing = join(scratch, 'not-a-dir');
    writeFileSync(failing, 'a file where the out root should be');
    await expect(prepareReview(options({ outRoot: failing }))).rejects.toThrow();
    mkdirSync(join(scratch, 'killed'));
    // A build killed half-way leaves only a dot-directory, which no reader lists and the next review ignores.
    mkdirSync(join(scratch, 'killed', `.building-${shortCommit(base)}-x/index`), { recursive: true });
    writeFileSync(join(scratch, 'killed', `.building-${shortCommit(base)}-x/index/manifest.json`), '{}');
    const prepared = await prepareReview(options({ outRoot: join(scratch, 'killed') }));
    expect(prepared.base.built).toBe(true);
    expect(readdirSync(join(scratch, 'killed')).filter((n) => !n.startsWith('.')).sort()).toEqual([base, head].sort());
  });

  it('adds .sextant/ to .git/info/exclude once, and not when git ignores it already', async () => {
    const exclude = join(repo.dir, '.git/info/exclude');
    await prepareReview(options());
    await prepareReview(options());
    expect(readFileSync(exclude, 'utf8').match(/^\.sextant\/$/gm)).toEqual(['.sextant/']);
    expect(git(repo.dir, 'status', '--porcelain')).toBe('');

    const other = fixtureRepo();
    try {
      writeFileSync(join(other.dir, '.gitignore'), '.sextant\n');
      commitAll(other.dir, 'ignores .sextant');
      const before = existsSync(join(other.dir, '.git/info/exclude')) ? readFileSync(join(other.dir, '.git/info/exclude'), 'utf8') : '';
      await prepareReview(options({ repo: other.dir, base: 'HEAD' }));
      expect(existsSync(join(other.dir, '.git/info/exclude')) ? readFileSync(join(other.dir, '.git/info/exclude'), 'utf8') : '').toBe(before);
      expect(readFileSync(join(other.dir, '.gitignore'), 'utf8')).toBe('.sextant\n');
    } finally {
      other.cleanup();
    }
  });

  it('refuses a repository that tracks .sextant/, unless --out-root is elsewhere', async () => {
    const shipping = fixtureRepo();
    try {
      mkdirSync(join(shipping.dir, '.sextant/indexes/0000000000000000000000000000000000000000'), { recursive: true });
      writeFileSync(join(shipping.dir, '.sextant/indexes/0000000000000000000000000000000000000000/manifest.json'), '{}\n');
      writeFileSync(join(shipping.dir, 'a.ts'), 'export const a = 1;\n');
      commitAll(shipping.dir, 'ships an index');
      const stderr: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { stderr.push(String(chunk)); return true; });
      try {
        expect(await main(['review', '--repo', shipping.dir, '--base', 'HEAD', '--quiet'])).toBe(1);
      } finally {
        vi.restoreAllMocks();
      }
      expect(stderr.join('')).toMatch(/^error: .* tracks 1 file under \.sextant\/ \(\.sextant\/indexes\/0{40}\/manifest\.json\): .* To fix this, pass --out-root with a directory outside \.sextant\//);
      await expect(prepareReview(options({ repo: shipping.dir, base: 'HEAD', outRoot: join(shipping.dir, '.sextant/elsewhere') })))
        .rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      const elsewhere = await prepareReview(options({ repo: shipping.dir, base: 'HEAD', outRoot: join(scratch, 'shipping') }));
      expect(elsewhere.head.built).toBe(true);
      expect(existsSync(join(shipping.dir, '.git/info/exclude')) && readFileSync(join(shipping.dir, '.git/info/exclude'), 'utf8')).not.toMatch(/^\.sextant\/$/m);
    } finally {
      shipping.cleanup();
    }
  });

  it('refuses a missing --base and an unknown --format with usage errors', async () => {
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { stderr.push(String(chunk)); return true; });
    try {
      expect(await main(['review', '--repo', repo.dir])).toBe(2);
      expect(await main(['review', '--repo', repo.dir, '--base', 'HEAD', '--format', 'html'])).toBe(2);
    } finally {
      vi.restoreAllMocks();
    }
    expect(stderr.join('')).toMatch(/review needs --base[\s\S]*--format must be one of markdown, text, json, got "html"/);
  });
});

describe('indexer review: the answer', { timeout: 120_000 }, () => {
  async function review(...args: string[]): Promise<{ code: number; stdout: string }> {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { out.push(String(chunk)); return true; });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      return { code: await main(['review', '--repo', repo.dir, '--base', base, '--head', head, '--quiet', ...args]), stdout: out.join('') };
    } finally {
      vi.restoreAllMocks();
    }
  }

  it('prints both tools\' answers as markdown, text and JSON', async () => {
    const markdown = await review();
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('price');
    const json = await review('--format', 'json');
    expect(json.code).toBe(0);
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['diff_symbols', 'change_impact']);
    const text = await review('--format', 'text');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('price');
  });
});

describe('indexer review: honest totals', { timeout: 120_000 }, () => {
  it('is exact in a repository without tests however long the callers chain, and lists a new error no change explains as unattributed', async () => {
    const chain = fixtureRepo();
    try {
      mkdirSync(join(chain.dir, 'src'));
      // f0 is called by f1, f1 by f2, …: a chain longer than the walk to tests may go.
      for (let i = 0; i < 10; i++) {
        writeFileSync(join(chain.dir, `src/f${i}.ts`), i === 0
          ? 'export function f0(n: number): number { return n; }\n'
          : `import { f${i - 1} } from './f${i - 1}';\nexport function f${i}(n: number): number { return f${i - 1}(n) + 1; }\n`);
      }
      const chainBase = commitAll(chain.dir, 'base');
      writeFileSync(join(chain.dir, 'src/f0.ts'), 'export function f0(n: number): number { return n * 2; }\n');
      const chainHead = commitAll(chain.dir, 'body');
      const review = async (b: string, h: string) => {
        const prepared = await prepareReview({ base: b, head: h, repo: chain.dir, outRoot: join(scratch, 'honest'), maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
        return JSON.parse(await reviewOutput(prepared, 'json')).change_impact;
      };
      const exact = await review(chainBase, chainHead);
      expect(exact.impacts.map((i: { symbol: { name: string } }) => i.symbol.name)).toEqual(['f0']);
      expect(exact.affectedTests).toEqual([]);
      expect(exact.truncationReason ?? '').not.toContain('tests:');
      expect(exact.totalIsExact).toBe(true);

      // A new error at the top level of a changed file: no changed symbol holds it, no site is on it,
      // the compiler blames nothing that changed. It is reported as a broken place all the same.
      writeFileSync(join(chain.dir, 'src/f9.ts'), `${readFileSync(join(chain.dir, 'src/f9.ts'), 'utf8')}Math.floor('x');\n`);
      const broken = await review(chainHead, commitAll(chain.dir, 'a stray error'));
      expect(broken.introducedProblems).toEqual([expect.objectContaining({ path: 'src/f9.ts', line: 3, severity: 'error', cause: 'unattributed' })]);
      expect(broken.introducedProblems[0].symbolId).toBeUndefined();
      expect(broken.unattributed).toEqual([expect.objectContaining({ path: 'src/f9.ts', line: 3, status: 'broken', cause: 'unattributed', text: "Math.floor('x');" })]);
      expect(broken.unattributed[0].reason).toMatch(/^TS2345: Argument of type 'string'/);
      expect(broken.totalIsExact).toBe(true);
    } finally {
      chain.cleanup();
    }
  });

  it('spans a call broken by an error in an argument on a later line, so the site covers the line the compiler reports', async () => {
    const impact = await impactOf('calls', {
      'src/bag.ts': 'export class Bag {\n  add(item: string): void {}\n}\n',
      'src/use.ts': "import { Bag } from './bag';\nexport function fill(bag: Bag): void {\n  bag.add(\n    'x',\n  );\n}\n",
      'tsconfig.json': TSCONFIG,
    }, { 'src/bag.ts': 'export class Bag {\n  add(item: number): void {}\n}\n' });
    // The compiler reports the argument, line 4; the reference to add is on line 3.
    expect(impact.introducedProblems.map((p: { path: string; line: number; cause: string }) => `${p.path}:${p.line} ${p.cause}`)).toEqual(['src/use.ts:4 reference']);
    const add = impact.impacts.find((i: any) => i.symbol.name === 'add');
    expect(add.sites).toEqual([expect.objectContaining({ path: 'src/use.ts', line: 3, column: 7, endLine: 5, endColumn: 4, status: 'broken', cause: 'reference', text: '  bag.add(' })]);
    expect(add.sites[0].reason).toMatch(/^TS2345: Argument of type 'string'/);
  });

  it('attributes an error about a type that names a changed member, and one inside a callback typed through a declaration the change broke', async () => {
    const files = {
      'src/sub.ts': 'export interface Observer {\n  next(v: number): void;\n}\nexport class Sub implements Observer {\n  next(v: number): void {}\n}\nexport class SafeSub extends Sub {}\n',
      'src/take.ts': "import { SafeSub, type Observer } from './sub';\nfunction take(o: Observer): void {}\ntake(new SafeSub());\n",
      'src/types.ts': 'export interface Op<A, B> {\n  (a: A): B;\n}\nexport interface Mono<T> extends Op<T, T> {}\n',
      'src/lift.ts': "import { Op } from './types';\nexport function operate<A, B>(init: (a: A) => B): Op<A, B> {\n  return init;\n}\n",
      'src/use.ts': "import type { Mono } from './types';\nimport { operate } from './lift';\nexport function same<T>(): Mono<T> {\n  return operate((a) => {\n    const n: T = a;\n    return n;\n  });\n}\n",
      'tsconfig.json': TSCONFIG,
    };
    const impact = await impactOf('flows', files, {
      'src/sub.ts': files['src/sub.ts'].replace('  next(v: number): void {}', '  private next(v: number): void {}'),
      'src/types.ts': files['src/types.ts'].replace('export interface Op', 'interface Op'),
    });
    expect(causesOf(impact)).toEqual([
      // The import the change broke: a reference.
      'src/lift.ts:1 TS2459 reference Op',
      // `Class 'Sub' incorrectly implements interface 'Observer'. Property 'next' is private…`: the type's member, named.
      'src/sub.ts:4 TS2420 flow Sub.next',
      // SafeSub inherits the member from Sub.
      'src/take.ts:3 TS2345 flow Sub.next',
      // `a` is unknown since operate's return type no longer resolves: the callback is passed to operate, which uses Op.
      'src/use.ts:5 TS2322 flow Op',
    ]);
    expect(impact.unattributed).toEqual([]);
  });

  it('attributes errors through the types they flow from: a parameter inferred from what its call must fit, a class returned as this, a module that stopped being one', async () => {
    const files = {
      'src/types.ts': 'export interface Observer<T> {\n  next(value: T): void;\n  done(): void;\n}\n',
      'src/source.ts': "import type { Observer } from './types';\nexport class Source<T> {\n  subscribe(o: Partial<Observer<T>>): void {}\n}\n",
      'src/subscriber.ts': 'export class Subscriber<T> {\n  constructor(private onNext: (value: T) => void) {}\n  next(value: T): void {\n    this.onNext(value);\n  }\n  done(): void {}\n}\nexport function subscriber<T>(onNext: (value: T) => void): Subscriber<T> {\n  return new Subscriber(onNext);\n}\n',
      'src/use.ts': "import type { Source } from './source';\nimport { subscriber } from './subscriber';\nexport function collect(source: Source<number>): number[] {\n  const all: number[] = [];\n  source.subscribe(subscriber((value) => { all.push(value); }));\n  return all;\n}\n",
      'src/handle.ts': 'export class Handle {\n  close(): void {}\n}\nexport class Action extends Handle {\n  close(): void {}\n  schedule(): Handle {\n    return this;\n  }\n}\n',
      'src/catcher.ts': 'export type Catcher = { caught: true };\n',
      'src/join.ts': "import { Catcher } from './catcher';\nexport const caught = (c: Catcher) => c.caught;\n",
      'tsconfig.json': TSCONFIG,
    };
    const impact = await impactOf('inferred', files, {
      'src/types.ts': files['src/types.ts'].replace('  next(value: T): void;\n', ''),
      'src/handle.ts': files['src/handle.ts'].replace('  close(): void {}\n  schedule', '  private close(): void {}\n  schedule'),
      'src/catcher.ts': 'type Catcher = { caught: true };\n',
    });
    expect(causesOf(impact)).toEqual([
      // `Class 'Action' incorrectly extends base class 'Handle'. Property 'close' is private in type 'Action'…`.
      'src/handle.ts:4 TS2415 flow Action.close',
      // `return this` where a Handle is due: `this` is the class, and the message names its member.
      'src/handle.ts:7 TS2322 flow Action.close',
      // The import of a module that no longer exports anything (TS2306 at the module's name): the name it lost.
      'src/join.ts:1 TS2306 flow Catcher',
      // `value` is unknown: subscriber's T was inferred from what subscribe's parameter must be, a
      // Partial<Observer<T>>, whose interface lost next.
      'src/use.ts:5 TS2345 flow Observer',
    ]);
    expect(impact.unattributed).toEqual([]);
  });

  it('attributes an error in a callback typed by the receiver of the call it is passed to, and one a few declarations away from the change', async () => {
    const files = {
      'src/config.ts': [
        'export interface Codec<T> {\n  decode(s: string): T;\n}',
        'export interface Config<T> {\n  readonly value: T;\n  pipe<B>(f: (self: Config<T>) => B): B;\n}',
        'export const make = <T>(value: T): Config<T> => ({ value, pipe: (f) => f(make(value)) });',
        'export function schema<T>(codec: Codec<T>, name: string): Config<T> {\n  return make(codec.decode(name));\n}',
        'export const intCodec: Codec<number> = { decode: (s) => Number(s) };',
        'export function Int(name: string) {\n  return schema(intCodec, name);\n}',
        'export const map = <A, B>(f: (a: A) => B) => (self: Config<A>): Config<B> => make(f(self.value));\n',
      ].join('\n'),
      'src/port.ts': "import * as Config from './config';\nconst half = (n: number) => n / 2;\nexport const port = Config.Int('port').pipe(Config.map((n) => half(n)));\n",
      'src/limits.ts': 'export const limit: number = 5;\n',
      'src/settings.ts': "import { limit } from './limits';\nconst local = limit;\nexport const settings = { max: local };\n",
      'src/twice.ts': "import { settings } from './settings';\nexport const doubled: number = settings.max * 2;\n",
      'tsconfig.json': TSCONFIG,
    };
    const impact = await impactOf('distant', files, {
      'src/config.ts': files['src/config.ts'].replace('schema<T>(codec: Codec<T>', 'schema<T>(codec: { readonly mutant: true }'),
      'src/limits.ts': "export const limit: string = '5';\n",
    });
    expect(causesOf(impact)).toEqual([
      // In the changed function itself, and at its call in Int.
      'src/config.ts:10 TS2339 declaration schema',
      'src/config.ts:14 TS2345 reference schema',
      // `n` is unknown: map's A is inferred from pipe's receiver, `Config.Int('port')`, whose type schema gave.
      'src/port.ts:3 TS2345 flow schema',
      // `settings.max` is a string: settings holds `local`, which holds limit.
      'src/twice.ts:2 TS2362 flow limit',
    ]);
    expect(impact.unattributed).toEqual([]);
  });

  it('names the aspect that changed where the shown signature cannot tell: one cut at 300 characters, a function merged with a type of its name, a declaration tree-sitter cannot parse', async () => {
    // A doc comment in a parameter's type pushes the return type past the 300 characters a signature shows.
    const config = `export function configure(\n  options: {\n    /** ${'A long comment. '.repeat(20)}*/\n    readonly name: string\n  }\n): string {\n  return options.name;\n}\n`;
    const files = {
      'src/config.ts': config,
      'src/pick.ts': 'export type pick<T> = { readonly value: T };\nexport function pick<T>(value: T): pick<T> {\n  return { value };\n}\n',
      // `in out` and `const` type parameters: syntax the tree-sitter grammar does not know, which the compiler parses.
      'src/variance.ts': 'export interface Box<in out A> {\n  readonly value: A;\n}\nexport function make<const A>(value: A): Box<A> {\n  return { value };\n}\n',
      'src/use.ts': "import { configure } from './config';\nimport { pick } from './pick';\nimport { make } from './variance';\nexport const a = configure({ name: 'a' });\nexport const b = pick(1);\nexport const c = make(1);\n",
      // A modifier alone is `modifiers`, though the whole signature's text holds it.
      'src/counter.ts': 'export class Counter {\n  count(): number {\n    return 1;\n  }\n}\nexport const n = new Counter().count();\n',
      'tsconfig.json': TSCONFIG,
    };
    const impact = await impactOf('aspects', files, {
      'src/counter.ts': files['src/counter.ts'].replace('  count(): number {', '  private count(): number {'),
      'src/config.ts': config.replace('): string {', '): string | undefined {'),
      'src/pick.ts': files['src/pick.ts'].replace('(value: T)', '(value: T | undefined)'),
      'src/variance.ts': files['src/variance.ts'].replace('function make<', 'function makeBox<'),
    });
    expect(impact.impacts.map((i: any) => `${i.change} [${i.aspects}] ${i.symbol.name}`)).toEqual(expect.arrayContaining([
      'modified [signature] configure', 'modified [signature] pick', 'renamed [] makeBox', 'modified [modifiers] count',
    ]));
  });

  it('lists the names a barrel stopped exporting (export *) as changes, and the unchanged importer\'s new errors as their broken sites', async () => {
    const impact = await impactOf('barrel', {
      'src/errors.ts': 'export class NotFound extends Error {}\nexport class Conflict extends Error {}\n',
      'src/index.ts': "export * from './errors';\nexport const version = 1;\n",
      'src/app.ts': "import { NotFound, Conflict } from './index';\nexport const fail = () => { throw new NotFound(); };\nexport const clash = () => new Conflict();\n",
      'tsconfig.json': TSCONFIG,
    }, { 'src/index.ts': 'export const version = 1;\n' });
    // src/app.ts is byte for byte the same at both commits; the compiler now fails both of its imports.
    expect(impact.introducedProblems.map((p: { path: string; line: number; cause: string }) => `${p.path}:${p.line} ${p.cause}`)).toEqual(['src/app.ts:1 reference', 'src/app.ts:1 reference']);
    const summary = impact.impacts.map((i: any) => `${i.change} [${i.aspects}] ${i.symbol.name} ${i.symbol.path}: ${i.sites.map((s: any) => `${s.status} ${s.path}:${s.line}`).join(', ')}`);
    expect(summary).toEqual([
      'modified [exports] Conflict src/index.ts: broken src/app.ts:1, at-risk src/app.ts:3',
      'modified [exports] NotFound src/index.ts: broken src/app.ts:1, at-risk src/app.ts:2',
    ]);
    expect(impact.unattributed).toEqual([]);
    expect(impact.totalIsExact).toBe(true);
  });

  it('attributes what a lost export * leaves behind: a namespace it re-exported, callbacks left untyped, a @ts-expect-error left unused', async () => {
    const impact = await impactOf('cascade', {
      'src/schemas.ts': "export function list() {\n  return { map(f: (n: number) => number): number { return f(1); } };\n}\nexport class Failure extends Error {\n  reason = 'x';\n}\n",
      'src/iso.ts': 'export const day = 1;\n',
      'src/external.ts': "export * from './schemas';\nexport * as iso from './iso';\n",
      'src/index.ts': "export * from './external';\nexport const version = 1;\n",
      'src/app.ts': [
        "import * as z from './index';",
        'export const doubled = z.list().map((n) => n * 2);',
        'export const mapped = z.list().map(',
        '  (n) => n + 1,',
        ');',
        'export const codec = { decode: (s) => s };',
        'export const first = z.iso.day;',
        'export function check(): void {',
        '  const numbers = z.list();',
        '  // @ts-expect-error: map takes a function',
        "  numbers.map('x');",
        '}',
        'try {',
        "  JSON.parse('{');",
        '} catch (e) {',
        '  if (e instanceof z.Failure) {',
        '    console.log(e.reason);',
        '  }',
        '}',
        '',
      ].join('\n'),
      'tsconfig.json': TSCONFIG,
    }, { 'src/index.ts': 'export const version = 1;\n' });
    const at = (p: { path: string; line: number; code?: number; cause: string }) => `${p.path}:${p.line} TS${p.code} ${p.cause}`;
    // Line 6's untyped parameter was there at base: not new, so not the change's.
    expect(impact.introducedProblems.map(at)).toEqual([
      'src/app.ts:2 TS2339 reference', 'src/app.ts:2 TS7006 flow', 'src/app.ts:3 TS2339 reference', 'src/app.ts:4 TS7006 flow',
      'src/app.ts:7 TS2339 reference', 'src/app.ts:9 TS2339 reference', 'src/app.ts:10 TS2578 flow',
      // `e` is no longer narrowed by a class that no longer resolves.
      'src/app.ts:16 TS2339 reference', 'src/app.ts:17 TS18046 flow',
    ]);
    const names = impact.impacts.map((i: any) => `${i.change} [${i.aspects}] ${i.symbol.name}`);
    expect(names).toEqual(['modified [exports] Failure', 'modified [exports] iso', 'modified [exports] list']);
    expect(impact.unattributed).toEqual([]);
  });

  it('attributes an override that no longer fits the member it overrides, at the override\'s name, to that member', async () => {
    const impact = await impactOf('override', {
      'src/shape.ts': 'export abstract class Shape {\n  area(): number {\n    return 0;\n  }\n}\nexport interface Named {\n  label(): string;\n}\n',
      'src/square.ts': "import { Named, Shape } from './shape';\nexport class Square extends Shape implements Named {\n  area(): number {\n    return 4;\n  }\n  label(): string {\n    return 'square';\n  }\n}\n",
      'tsconfig.json': TSCONFIG,
    }, { 'src/shape.ts': "export abstract class Shape {\n  area(): string {\n    return '0';\n  }\n}\nexport interface Named {\n  label(): number;\n}\n" });
    const at = (p: { path: string; line: number; code?: number; cause: string; symbolId?: string }) => `${p.path}:${p.line} TS${p.code} ${p.cause}`;
    expect(impact.introducedProblems.map(at)).toEqual(['src/square.ts:3 TS2416 flow', 'src/square.ts:6 TS2416 flow']);
    const sites = impact.impacts.map((i: any) => `${i.symbol.name}: ${i.sites.map((s: any) => `${s.status} ${s.cause} ${s.path}:${s.line}`).join(', ')}`);
    expect(sites).toEqual(['area: broken flow src/square.ts:3', 'label: broken flow src/square.ts:6']);
  });

  it('pairs a recursive function renamed alone as renamed: its body still calls the old name, its lines are where they were', async () => {
    const impact = await impactOf('recursive-rename', {
      'src/count.ts': 'export function countDown(n: number): number {\n  if (n <= 0) return 0;\n  return countDown(n - 1);\n}\nexport function other(): number {\n  return 1;\n}\n',
      'src/use.ts': "import { countDown } from './count';\nexport const ten = countDown(10);\n",
      'tsconfig.json': TSCONFIG,
    }, { 'src/count.ts': 'export function countTo(n: number): number {\n  if (n <= 0) return 0;\n  return countDown(n - 1);\n}\nexport function other(): number {\n  return 1;\n}\n' });
    expect(impact.impacts.map((i: any) => `${i.change} [${i.aspects}] ${i.symbol.name}: ${i.sites.filter((s: any) => s.status === 'broken').map((s: any) => `${s.path}:${s.line}`).join(', ')}`))
      .toEqual(['renamed [] countTo: src/count.ts:3, src/use.ts:1']);
  });

  it('lists every site of a symbol with over 1000, in entries of 1000 in a row, and stays exact', async () => {
    const calls = Array.from({ length: 1203 }, (_, i) => `  scale(${i});`).join('\n');
    const impact = await impactOf('many-sites', {
      'src/scale.ts': 'export function scale(by: number): number {\n  return by * 2;\n}\n',
      'src/use.ts': `import { scale } from './scale';\nexport function all(): void {\n${calls}\n}\n`,
      'tsconfig.json': TSCONFIG,
    }, { 'src/scale.ts': 'export function scale(by: string): number {\n  return by.length;\n}\n' });
    expect(impact.changed).toBe(1);
    expect(impact.impacts.map((i: any) => [i.symbol.name, i.sitesFrom, i.sites.length, i.sitesTotal])).toEqual([['scale', 0, 1000, 1203], ['scale', 1000, 203, 1203]]);
    const broken = impact.impacts.flatMap((i: any) => i.sites).filter((s: any) => s.status === 'broken');
    expect(new Set(broken.map((s: any) => s.line)).size).toBe(1203);
    expect(impact.introducedProblems).toHaveLength(1203);
    expect(impact.totalIsExact).toBe(true);
  });
});
