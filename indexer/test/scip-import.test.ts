// `indexer build --scip`: a real scip-typescript index of a small TypeScript repository imported
// into the commit's index. Its files answer with precision scip and the same sites as
// scip-typescript's occurrences and as Sextant's own compiler-backed index; a document that no
// longer matches its file is refused for that file alone; a file that is not SCIP fails the build.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { SextantError, type Manifest } from '@sextant/format';
import { callHierarchy, diffSymbols, fileStructure, findReferences, gotoDefinition, IndexReader, searchSymbols, ShardCache } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { buildIndex } from '../src/build-command.ts';
import { Progress } from '../src/progress.ts';
import { IndexSchema, PositionEncoding, type Index } from '../src/scip/scip_pb.ts';
import { runScipIndexers, SCIP_RUNNERS } from '../src/scip/scip-runners.ts';
import { isSourceName, withoutVersion } from '../src/scip/scip-symbol.ts';
import { prepareReview, reviewOutput } from '../src/review-command.ts';
import { commitAll, fixtureRepo, type FixtureRepo } from './support/fixture-repo.ts';

const SHAPES = `/** Something with an area. */
export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(readonly side: number) {}
  area(): number {
    return this.side * this.side;
  }
}

export function total(shapes: Shape[]): number {
  let sum = 0;
  for (const s of shapes) sum += s.area();
  return sum;
}
`;
const MAIN = `import { Square, total, type Shape } from './shapes';

const ünïcødé = '日本語'; const sq = new Square(2);
const rocket = '🚀'; export const afterRocket = rocket.length;
export function main(): number {
  const list: Shape[] = [sq, new Square(3)];
  return total(list) + ünïcødé.length + afterRocket;
}
main();
`;

const scratch = mkdtempSync(join(tmpdir(), 'sextant-scip-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let repo: FixtureRepo;
let scipFile: string;
let scip: Index;
let own: IndexReader;
let imported: { out: string; manifest: Manifest; reader: IndexReader };

let counter = 0;
async function build(options: { scip?: string[]; commit?: string; from?: string } = {}): Promise<{ out: string; manifest: Manifest; reader: IndexReader }> {
  const out = join(scratch, `index-${counter++}`);
  const manifest = await buildIndex({
    repo: repo.dir, commit: options.commit ?? 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true),
    ...(options.scip ? { scip: options.scip } : {}), ...(options.from ? { from: options.from } : {}),
  });
  return { out, manifest, reader: await IndexReader.open(new DirShardSource(out), new ShardCache(16 << 20)) };
}

/** The real scip-typescript 0.4.0 (a devDependency), run with node on `dir`. */
function scipTypescript(dir: string, output: string): void {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@sourcegraph/scip-typescript/package.json');
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string }).bin;
  execFileSync(process.execPath, [join(dirname(manifest), bin), 'index', '--cwd', dir, '--output', output, '--no-progress-bar'], { stdio: 'pipe' });
}

/** A variant of the index written beside it. */
function writeVariant(name: string, change: (index: Index) => void): string {
  const index = fromBinary(IndexSchema, readFileSync(scipFile));
  change(index);
  const file = join(scratch, name);
  writeFileSync(file, toBinary(IndexSchema, index));
  return file;
}

beforeAll(async () => {
  repo = fixtureRepo();
  mkdirSync(join(repo.dir, 'src'));
  writeFileSync(join(repo.dir, 'package.json'), '{ "name": "demo", "version": "1.0.0", "private": true, "type": "module" }\n');
  writeFileSync(join(repo.dir, 'tsconfig.json'), '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "noEmit": true, "target": "ES2022", "types": [] }, "include": ["src"] }\n');
  writeFileSync(join(repo.dir, 'src/shapes.ts'), SHAPES);
  writeFileSync(join(repo.dir, 'src/main.ts'), MAIN);
  writeFileSync(join(repo.dir, 'src/extra.ts'), 'export const extra = 1;\n');
  commitAll(repo.dir, 'fixture');
  scipFile = join(scratch, 'index.scip');
  scipTypescript(repo.dir, scipFile);
  scip = fromBinary(IndexSchema, readFileSync(scipFile));
  own = (await build()).reader;
  imported = await build({ scip: [scipFile] });
}, 60_000);
afterAll(() => repo?.cleanup());

/** scip-typescript's own answer: every occurrence of the symbol at a position, as 1-based `path:line:column`. */
function scipSites(path: string, line: number, column: number): { symbol: string; sites: string[] } {
  const document = scip.documents.find((d) => d.relativePath === path)!;
  const at = document.occurrences.find((o) => o.range[0] === line - 1 && o.range[1]! <= column - 1 && column - 1 < o.range[o.range.length - 1]!)!;
  // A `local N` is its document's own.
  const documents = at.symbol.startsWith('local ') ? [document] : scip.documents;
  const sites = documents.flatMap((d) => d.occurrences.filter((o) => o.symbol === at.symbol).map((o) => `${d.relativePath}:${o.range[0]! + 1}:${o.range[1]! + 1}`));
  return { symbol: at.symbol, sites: sites.sort() };
}

async function referenceSites(reader: IndexReader, path: string, line: number, column: number): Promise<string[]> {
  const answer = await findReferences(reader, { path, line, column }, { includeDeclaration: true, includeRelated: false });
  expect(answer.totalIsExact).toBe(true);
  return answer.references.map((r) => `${r.path}:${r.line}:${r.column}`).sort();
}

async function definitionSites(reader: IndexReader, path: string, line: number, column: number): Promise<string[]> {
  return (await gotoDefinition(reader, { path, line, column })).definitions.map((d) => `${d.path}:${d.line}:${d.column}`);
}

describe('indexer build --scip', () => {
  it('indexes the files with precision scip, names the SCIP indexer, and marks references exact', async () => {
    const { manifest, reader } = imported;
    expect(manifest.languages).toEqual({ typescript: { files: 3, precision: 'scip' } });
    expect(manifest.parsers['scip:scip-typescript']).toBe('0.4.0');
    expect(manifest.warnings).toEqual([]);
    const answer = await findReferences(reader, { path: 'src/shapes.ts', line: 13, column: 17 }, {});
    expect(answer.references.map((r) => [r.kind, r.confidence])).toEqual([['import', 'exact'], ['call', 'exact']]);
  });

  it('answers goto_definition and find_references with scip-typescript\'s sites, and as Sextant\'s own index does', async () => {
    // Declarations and a use of each: (path, line, column) of the name.
    const cases: [string, number, number][] = [
      ['src/shapes.ts', 2, 18], // interface Shape
      ['src/shapes.ts', 3, 3], // Shape.area
      ['src/shapes.ts', 13, 17], // function total
      ['src/shapes.ts', 13, 23], // parameter shapes
      ['src/main.ts', 3, 30], // const sq, after non-ASCII text
      ['src/main.ts', 6, 9], // a local
    ];
    for (const [path, line, column] of cases) {
      const expected = scipSites(path, line, column).sites;
      expect(await referenceSites(imported.reader, path, line, column), `${path}:${line}:${column}`).toEqual(expected);
      expect(await referenceSites(own, path, line, column), `${path}:${line}:${column}`).toEqual(expected);
    }
    // Square: scip-typescript names its constructor at `new Square(…)`; the import, as Sextant does, the class.
    const square = scipSites('src/shapes.ts', 6, 14);
    const constructed = scipSites('src/main.ts', 3, 40);
    expect(constructed.symbol).toMatch(/Square#`<constructor>`\(\)\.$/);
    const both = [...square.sites, ...constructed.sites.filter((s) => s !== 'src/shapes.ts:7:3')].sort();
    expect(await referenceSites(imported.reader, 'src/shapes.ts', 6, 14)).toEqual(both);
    expect(await referenceSites(own, 'src/shapes.ts', 6, 14)).toEqual(both);

    for (const [path, line, column] of [['src/main.ts', 7, 10], ['src/main.ts', 6, 35], ['src/shapes.ts', 15, 37], ['src/main.ts', 7, 24], ['src/main.ts', 4, 38]] as const) {
      expect(await definitionSites(imported.reader, path, line, column), `${path}:${line}:${column}`).toEqual(await definitionSites(own, path, line, column));
    }
  });

  it('lands symbols after non-ASCII text on their UTF-16 columns, and reads positions in a declared UTF-8 encoding', async () => {
    // `const ünïcødé = '日本語'; const sq`: sq is column 30 in UTF-16 code units, 44 in UTF-8 bytes.
    expect(await definitionSites(imported.reader, 'src/main.ts', 7, 27)).toEqual(['src/main.ts:3:7']);
    expect(await definitionSites(imported.reader, 'src/main.ts', 6, 26)).toEqual(['src/main.ts:3:30']);
    // `const rocket = '🚀'; export const afterRocket`: the emoji is two code units.
    expect(await definitionSites(imported.reader, 'src/main.ts', 7, 45)).toEqual(['src/main.ts:4:35']);

    const lines = MAIN.split('\n');
    const bytes = (line: number, column: number) => Buffer.byteLength(lines[line]!.slice(0, column));
    const utf8 = writeVariant('utf8.scip', (index) => {
      for (const document of index.documents) {
        document.positionEncoding = PositionEncoding.UTF8CodeUnitOffsetFromLineStart;
        if (document.relativePath !== 'src/main.ts') continue;
        for (const o of document.occurrences) {
          for (const range of [o.range, o.enclosingRange]) {
            if (range.length === 0) continue;
            const [line, start, endLine, end] = range.length === 3 ? [range[0]!, range[1]!, range[0]!, range[2]!] : range as [number, number, number, number];
            range.splice(0, range.length, line, bytes(line, start), endLine, bytes(endLine, end));
          }
        }
      }
    });
    const { reader } = await build({ scip: [utf8] });
    expect(await definitionSites(reader, 'src/main.ts', 6, 26)).toEqual(['src/main.ts:3:30']);
    expect(await definitionSites(reader, 'src/main.ts', 7, 45)).toEqual(['src/main.ts:4:35']);
    expect(await referenceSites(reader, 'src/main.ts', 3, 30)).toEqual(await referenceSites(imported.reader, 'src/main.ts', 3, 30));

    // The same UTF-16 positions declared as UTF-8: a wrong encoding, caught and refused.
    const wrong = writeVariant('wrong-encoding.scip', (index) => {
      for (const document of index.documents) document.positionEncoding = PositionEncoding.UTF8CodeUnitOffsetFromLineStart;
    });
    const refused = await build({ scip: [wrong] });
    expect(refused.manifest.warnings).toEqual([expect.stringMatching(new RegExp(`^src/main\\.ts: SCIP document from ${wrong.replace(/[.]/g, '\\.')} refused: it does not match the file: the range at 3:`))]);
    expect(refused.manifest.languages).toEqual({ typescript: { files: 3, precision: 'scip' } });
  });

  it('refuses the document of a file edited since, and of a file no longer tracked, for those files alone', async () => {
    writeFileSync(join(repo.dir, 'src/main.ts'), `// edited after indexing\n${MAIN}`);
    rmSync(join(repo.dir, 'src/extra.ts'));
    const edited = commitAll(repo.dir, 'edit');
    try {
      const { manifest, reader } = await build({ scip: [scipFile], commit: edited });
      expect([...manifest.warnings].sort()).toEqual([
        `src/extra.ts: SCIP document from ${scipFile} refused: the commit does not track this path`,
        `src/main.ts: SCIP document from ${scipFile} refused: it does not match the file: the range at 1:18 cuts a word in two ("ed after indexing")`,
      ]);
      // The edited file is indexed by Sextant's own indexer (the compiler), the other by SCIP: the language is labelled with the least precise.
      expect(manifest.languages).toEqual({ typescript: { files: 2, precision: 'scip' } });
      expect(await definitionSites(reader, 'src/main.ts', 8, 10)).toEqual(['src/shapes.ts:13:17']);
      expect(await referenceSites(reader, 'src/main.ts', 4, 30)).toEqual(['src/main.ts:4:30', 'src/main.ts:7:26']);
      expect(await definitionSites(reader, 'src/shapes.ts', 15, 37)).toEqual(['src/shapes.ts:3:3']);
    } finally {
      execFileSync('git', ['reset', '-q', '--hard', 'HEAD~1'], { cwd: repo.dir });
    }
  });

  it('keeps the uses of a refused file\'s symbols in imported files as unresolved, so answers say they may be incomplete', async () => {
    writeFileSync(join(repo.dir, 'src/shapes.ts'), `// edited after indexing\n${SHAPES}`);
    const edited = commitAll(repo.dir, 'edit shapes');
    try {
      const { manifest, reader } = await build({ scip: [scipFile], commit: edited });
      expect(manifest.warnings).toEqual([expect.stringMatching(/^src\/shapes\.ts: SCIP document from .* refused: it does not match the file: /)]);
      expect(manifest.counts.unresolved).toBeGreaterThan(0);
      const total = await findReferences(reader, { path: 'src/shapes.ts', line: 14, column: 17 }, {});
      expect(total.unresolved.examples.map((e) => `${e.path}:${e.line}:${e.column}`)).toEqual(['src/main.ts:1:18', 'src/main.ts:7:10']);
      expect(total.totalIsExact).toBe(false);
    } finally {
      execFileSync('git', ['reset', '-q', '--hard', 'HEAD~1'], { cwd: repo.dir });
    }
  });

  it('gives the same shards for the same commit and index, and builds in full from or with an import', async () => {
    const again = await build({ scip: [scipFile] });
    expect(again.manifest.shards).toEqual(imported.manifest.shards);
    expect(again.manifest.build).toEqual({ mode: 'full' });
    expect((await build({ scip: [scipFile], from: imported.out })).manifest.build).toEqual({ mode: 'full', reason: 'SCIP indexes are imported (--scip), which a build from another index does not do yet' });
    expect((await build({ from: imported.out })).manifest.build).toEqual({ mode: 'full', reason: 'the previous index imported a SCIP index (scip-typescript), which this build does not' });
  });

  it('keeps the repository\'s symbolIds when the indexer names another package version (a new commit, a bumped version)', async () => {
    const bumped = writeVariant('bumped.scip', (index) => {
      const rename = (symbol: string) => symbol.replace(' demo 1.0.0 ', ' demo 2.0.0-rc.1 ');
      for (const document of index.documents) {
        for (const o of document.occurrences) o.symbol = rename(o.symbol);
        for (const info of document.symbols) info.symbol = rename(info.symbol);
      }
    });
    expect(readFileSync(bumped)).not.toEqual(readFileSync(scipFile));
    const again = await build({ scip: [bumped] });
    const idOf = async (reader: IndexReader) => (await gotoDefinition(reader, { path: 'src/main.ts', line: 7, column: 10 })).symbol.symbolId;
    expect(await idOf(again.reader)).toBe(await idOf(imported.reader));
  });

  it('fails the build on a file that is not SCIP, naming it, and writes nothing', async () => {
    const text = join(scratch, 'notes.scip');
    writeFileSync(text, 'these are notes, not an index\n');
    const truncated = join(scratch, 'truncated.scip');
    const whole = readFileSync(scipFile);
    writeFileSync(truncated, whole.subarray(0, whole.length >> 1));
    const empty = join(scratch, 'empty.scip');
    writeFileSync(empty, '');
    for (const file of [text, truncated, empty]) {
      const out = join(scratch, `refused-${counter++}`);
      const error = await buildIndex({ repo: repo.dir, commit: 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), scip: [scipFile, file] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SextantError);
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(`${file} is not a SCIP index: `), hint: expect.stringMatching(/^Pass the index\.scip a SCIP indexer wrote/) });
      expect(existsSync(out)).toBe(false);
    }
    const missing = await buildIndex({ repo: repo.dir, commit: 'HEAD', out: join(scratch, 'missing'), maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), scip: [join(scratch, 'nope.scip')] }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'FILE_NOT_FOUND', message: expect.stringContaining('nope.scip') });
  });

  it('imports relationships as edges and definitions as the outline', async () => {
    const { reader } = imported;
    const area = await findReferences(reader, { path: 'src/shapes.ts', line: 3, column: 3 }, { includeDeclaration: true });
    // Square.area overrides Shape.area (is_implementation), so find_references includes it as Sextant's own index does.
    expect(area.related.map((r) => r.qualifiedName)).toEqual(['Square.area']);
    expect(area.related.map((r) => r.qualifiedName)).toEqual((await findReferences(own, { path: 'src/shapes.ts', line: 3, column: 3 }, {})).related.map((r) => r.qualifiedName));
    // The outline: the definitions nested by their enclosing ranges, as the compiler's.
    const outline = async (from: IndexReader) => {
      const flat = (nodes: Awaited<ReturnType<typeof fileStructure>>['outline'], depth = 0): string[] => nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.kind} ${n.name} ${n.nameLine}:${n.nameColumn}`, ...flat(n.children, depth + 1)]);
      return flat((await fileStructure(from, 'src/shapes.ts')).outline);
    };
    expect(await outline(reader)).toEqual(await outline(own));
    const callers = await callHierarchy(reader, { path: 'src/shapes.ts', line: 13, column: 17 }, { direction: 'callers' });
    expect(callers.nodes.map((n) => n.qualifiedName)).toEqual((await callHierarchy(own, { path: 'src/shapes.ts', line: 13, column: 17 }, { direction: 'callers' })).nodes.map((n) => n.qualifiedName));
  });
});

describe('SCIP indexers indexer build runs by itself', () => {
  const PYTHON = {
    'pkg/__init__.py': 'from .util import greet\n',
    'pkg/util.py': 'def greet(name):\n    return "hi " + name\n',
    'pkg/main.py': 'from pkg.util import greet\n\n\ndef run():\n    return greet("x")\n',
  };
  let python: FixtureRepo;
  beforeAll(() => {
    python = fixtureRepo();
    for (const [path, text] of Object.entries(PYTHON)) {
      mkdirSync(join(python.dir, dirname(path)), { recursive: true });
      writeFileSync(join(python.dir, path), text);
    }
    commitAll(python.dir, 'python');
  });
  afterAll(() => python?.cleanup());

  const buildPython = async (options: { autoScip?: boolean } = {}) => {
    const out = join(scratch, `python-${counter++}`);
    const manifest = await buildIndex({ repo: python.dir, commit: 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), ...options });
    return { manifest, reader: await IndexReader.open(new DirShardSource(out), new ShardCache(16 << 20)) };
  };

  it('runs the installed scip-python on the commit\'s Python files and imports its index; autoScip false leaves them syntactic', async () => {
    const auto = await buildPython();
    expect(auto.manifest.languages).toEqual({ python: { files: 3, precision: 'scip' } });
    expect(auto.manifest.parsers['scip:scip-python']).toBe('0.6.6');
    expect(auto.manifest.warnings).toEqual([]);
    const exact = await findReferences(auto.reader, { path: 'pkg/util.py', line: 1, column: 5 }, {});
    expect(exact.references.map((r) => `${r.path}:${r.line}:${r.column} ${r.confidence}`)).toEqual(['pkg/__init__.py:1:19 exact', 'pkg/main.py:1:22 exact', 'pkg/main.py:5:12 exact']);
    // A relative import's module, which scip-python names from no package, is the repository's module.
    const util = await searchSymbols(auto.reader, { query: 'pkg.util', kinds: ['module'] });
    expect(util.results.map((r) => `${r.qualifiedName} ${r.path}`)).toEqual(['pkg.util pkg/util.py']);
    const imports = await findReferences(auto.reader, { symbolId: util.results[0]!.symbolId }, {});
    expect(imports.references.map((r) => `${r.path}:${r.line}:${r.column} ${r.kind}`)).toEqual(['pkg/__init__.py:1:6 import', 'pkg/main.py:1:6 import']);
    const off = await buildPython({ autoScip: false });
    expect(off.manifest.languages).toEqual({ python: { files: 3, precision: 'syntactic' } });
    expect(Object.keys(off.manifest.parsers).filter((p) => p.startsWith('scip:'))).toEqual([]);
  });

  it('reviews a Python change from scip-python\'s indexes: exact sites, broken by rule, coverage scip', async () => {
    const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: python.dir, encoding: 'utf8' }).trim();
    writeFileSync(join(python.dir, 'pkg/util.py'), 'def welcome(name):\n    return "hi " + name\n');
    const head = commitAll(python.dir, 'rename greet');
    try {
      const prepared = await prepareReview({ base, head, repo: python.dir, outRoot: join(scratch, 'python-review'), maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
      const review = JSON.parse(await reviewOutput(prepared, 'json'));
      expect(review.change_impact.coverage.files).toMatchObject({ scip: ['pkg/util.py'], syntactic: [], compiler: [] });
      const [renamed] = review.change_impact.impacts;
      expect(renamed).toMatchObject({ change: 'renamed', symbol: { name: 'welcome', language: 'python' } });
      expect(renamed.sites.map((s: any) => `${s.path}:${s.line}:${s.column} ${s.status} ${s.confidence}`)).toEqual(['pkg/__init__.py:1:19 broken exact', 'pkg/main.py:1:22 broken exact', 'pkg/main.py:5:12 broken exact']);
      expect(renamed.sites[0].reason).toBe('no longer resolves: greet was renamed to welcome');
    } finally {
      execFileSync('git', ['reset', '-q', '--hard', base], { cwd: python.dir });
    }
  });

  it('says so when a language is indexed with another precision at base than at head: its symbols are keyed apart', async () => {
    const base = await buildPython();
    const head = await buildPython({ autoScip: false });
    const diff = await diffSymbols(base.reader, head.reader, {});
    expect(diff.totalIsExact).toBe(false);
    expect(diff.truncationReason).toContain('python is indexed with precision scip at base and syntactic at head');
  });

  it('turns a SCIP indexer that fails into a warning, and the files stay syntactic', async () => {
    const failing = { ...SCIP_RUNNERS[0]!, locate: () => [process.execPath, '-e', 'process.stderr.write("no interpreter here\\n"); process.exit(3)'] };
    const texts = new Map(Object.entries(PYTHON));
    const result = await runScipIndexers(python.dir, texts, new Progress(process.stderr, true), [failing]);
    expect(result.files).toEqual([]);
    expect(result.warnings).toEqual(['scip-python did not index the commit\'s 3 files (exit 3: no interpreter here); they are indexed syntactically']);
  });
});

describe('SCIP symbol names', () => {
  it('reads scip-typescript\'s accessors and numbered names as the text they stand for, and keys a version apart', () => {
    expect(isSourceName('observed', 'observed')).toBe(true);
    expect(isSourceName('<get>observed', 'observed')).toBe(true);
    expect(isSourceName('<set>value', 'value')).toBe(true);
    expect(isSourceName('next0', 'next')).toBe(true);
    expect(isSourceName('next12', 'next')).toBe(true);
    expect(isSourceName('nextTick', 'next')).toBe(false);
    expect(isSourceName('next', 'nex')).toBe(false);
    expect(withoutVersion('scip-go gomod example.com/x 4f2a9c1 `example.com/x/cart`/Cart#Add().')).toBe('scip-go gomod example.com/x . `example.com/x/cart`/Cart#Add().');
    expect(withoutVersion('a  b c d 1.0 x/')).toBe('a  b c d . x/');
    expect(withoutVersion('local 3')).toBe('local 3');
  });
});
