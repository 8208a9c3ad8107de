// Faithfulness of `indexer build --scip`: scip-typescript's index of a TypeScript corpus, imported,
// against Sextant's own compiler-backed index of the same commit, for the same seeded sample of
// declarations. Both answers come from the same query (find_references at the declaration's name,
// without the declaration and without related members), so every difference is the import's
// reading of SCIP or a convention of scip-typescript's: each is classified and counted.
//
//   npm run bench:scip-faithfulness -w @sextant/indexer -- [--corpus rxjs|zod|effect] [--sample N] [--seed S]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { findReferences, IndexReader, ShardCache, type IndexReader as Reader } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { buildIndex } from '../src/build-command.ts';
import { Progress } from '../src/progress.ts';
import { positiveOption } from './bench-options.ts';
import { CORPORA, prepareCorpus } from './corpora.ts';
import { sampleDeclarations } from './references-accuracy.ts';

const USAGE = 'usage: npx tsx bench/scip-faithfulness.ts [--corpus rxjs|zod|effect] [--sample N] [--seed S]';
const BENCH_DIR = new URL('../.bench/', import.meta.url).pathname;
/** The import must give Sextant's own answer for nearly every declaration: what a user could tell apart. */
const TARGET_SAME = 0.95;

const { values } = parseArgs({ options: { corpus: { type: 'string', default: 'rxjs' }, sample: { type: 'string', default: '300' }, seed: { type: 'string', default: '1' } } });
const sampleSize = positiveOption(values.sample, '--sample', USAGE);
const seed = positiveOption(values.seed, '--seed', USAGE);
const spec = CORPORA.find((c) => c.id === values.corpus);
if (!spec) {
  console.error(`unknown corpus ${values.corpus}; one of ${CORPORA.map((c) => c.id).join(', ')}\n${USAGE}`);
  process.exit(2);
}

const log = (line: string) => console.error(line);
const corpus = await prepareCorpus(spec, { cacheDir: join(BENCH_DIR, 'cache'), maxFileBytes: 1_000_000, log });
const work = join(BENCH_DIR, 'scip-faithfulness', spec.id);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// scip-typescript 0.4.0 (the indexer's devDependency) on the corpus commit's checkout.
const scipFile = join(work, 'index.scip');
const require = createRequire(import.meta.url);
const manifestPath = require.resolve('@sourcegraph/scip-typescript/package.json');
const bin = join(dirname(manifestPath), (JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string }).bin);
let started = performance.now();
execFileSync(process.execPath, [bin, 'index', '--cwd', corpus.dir, '--output', scipFile, '--no-progress-bar'], { stdio: ['ignore', 'ignore', 'inherit'] });
const scipSeconds = (performance.now() - started) / 1000;

const build = async (name: string, scip?: string) => {
  const out = join(work, name);
  started = performance.now();
  const manifest = await buildIndex({ repo: corpus.dir, commit: corpus.commit, out, maxFileBytes: corpus.maxFileBytes, progress: new Progress(process.stderr, true), autoScip: false, ...(scip ? { scip: [scip] } : {}) });
  const seconds = (performance.now() - started) / 1000;
  const bytes = Object.values(manifest.shards).reduce((sum, s) => sum + s.bytes, 0);
  return { manifest, seconds, bytes, reader: await IndexReader.open(new DirShardSource(out), new ShardCache(256 << 20)) };
};
const own = await build('own');
const imported = await build('imported', scipFile);

const where = (r: { path: string; line: number; column: number }) => `${r.path}:${r.line}:${r.column}`;
async function sites(reader: Reader, target: { path: string; line: number; column: number }): Promise<Map<string, string> | undefined> {
  try {
    const found = new Map<string, string>();
    let cursor: string | undefined;
    do {
      const page = await findReferences(reader, target, { includeDeclaration: false, includeRelated: false, minConfidence: 'candidate', limit: 2000, ...(cursor ? { cursor } : {}) });
      for (const r of page.references) found.set(where(r), r.kind);
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
    return found;
  } catch {
    return undefined;
  }
}

const names = await own.reader.names();
// Modules (a file, found by path) are no declaration at a position: the sample is of the others.
const drawn = sampleDeclarations(names, names.size, seed);
const pool = drawn.sample.filter((d) => d.kind !== 'module');
const candidates = pool.length;
const sample = pool.slice(0, sampleSize);
// scip-typescript records no references in doc comments (`{@link X}`, `@param x`), which Sextant's
// own index takes from the compiler: a documented convention, aligned by leaving such sites out.
const lineCache = new Map<string, string[]>();
const inComment = (site: string): boolean => {
  const [path, line] = site.split(':') as [string, string];
  const lines = lineCache.get(path) ?? lineCache.set(path, readFileSync(join(corpus.dir, path), 'utf8').split('\n')).get(path)!;
  return /^\s*(\*|\/\/|\/\*)/.test(lines[Number(line) - 1] ?? '');
};
let sameAligned = 0;
let inComments = 0;
let missing = 0;
let unanswered = 0;
let same = 0;
let both = 0;
let ownOnly = 0;
let importOnly = 0;
const classes = new Map<string, { count: number; examples: string[] }>();
const note = (cls: string, example: string) => {
  const entry = classes.get(cls) ?? classes.set(cls, { count: 0, examples: [] }).get(cls)!;
  entry.count++;
  if (entry.examples.length < 3) entry.examples.push(example);
};
for (const decl of sample) {
  const at = { path: decl.path, line: decl.line, column: decl.column };
  const ours = await sites(own.reader, at);
  const theirs = await sites(imported.reader, at);
  if (!ours) {
    unanswered++;
    note('Sextant\'s own index has no symbol there either', `${where(at)} ${decl.qname}`);
    continue;
  }
  if (!theirs) {
    missing++;
    note(`no SCIP symbol at the declaration (${decl.kind})`, `${where(at)} ${decl.qname}`);
    continue;
  }
  let identical = true;
  let aligned = true;
  for (const [site, kind] of ours) {
    if (theirs.has(site)) {
      both++;
      if (theirs.get(site) !== kind) note(`same site, kind ${kind} here, ${theirs.get(site)} imported`, `${site} ${decl.qname}`);
    } else if (inComment(site)) {
      identical = false;
      inComments++;
      note('only Sextant\'s own, in a doc comment (convention)', `${site} ${decl.qname}`);
    } else {
      identical = false;
      aligned = false;
      ownOnly++;
      note(`only Sextant's own (${kind})`, `${site} ${decl.qname}`);
    }
  }
  for (const [site, kind] of theirs) {
    if (ours.has(site)) continue;
    identical = false;
    aligned = false;
    importOnly++;
    note(`only the import (${kind})`, `${site} ${decl.qname}`);
  }
  if (identical) same++;
  if (aligned) sameAligned++;
}

const compared = sample.length - missing - unanswered;
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : 'n/a');
const scipBytes = statSync(scipFile).size;
console.log(`\n## SCIP import faithfulness: ${spec.id} (${corpus.files} files, ${corpus.lines} lines), seed ${seed}`);
console.log(`scip-typescript: ${scipSeconds.toFixed(1)} s, ${(scipBytes / 1e6).toFixed(2)} MB index.scip`);
console.log('| build | seconds | shard bytes | symbols | references |');
console.log('| --- | --- | --- | --- | --- |');
console.log(`| own (compiler) | ${own.seconds.toFixed(1)} | ${own.bytes} | ${own.manifest.counts.symbols} | ${own.manifest.counts.references} |`);
console.log(`| --scip | ${imported.seconds.toFixed(1)} | ${imported.bytes} (${(imported.bytes / scipBytes).toFixed(2)}x the .scip) | ${imported.manifest.counts.symbols} | ${imported.manifest.counts.references} |`);
console.log(`warnings of the import: ${imported.manifest.warnings.length}`);
console.log(`\n| measure | value | target |`);
console.log('| --- | --- | --- |');
console.log(`| declarations sampled (of ${candidates}) | ${sample.length} | |`);
console.log(`| found at their position in the import | ${pct(compared, sample.length - unanswered)} | |`);
console.log(`| same references as Sextant's own | ${pct(same, compared)} | |`);
console.log(`| same, doc-comment references aside | ${pct(sameAligned, compared)} | >= ${TARGET_SAME * 100} % |`);
console.log(`| sites in both / either, doc comments aside | ${pct(both, both + ownOnly + importOnly)} (${both}; ${ownOnly} own only, ${importOnly} import only; ${inComments} in doc comments) | |`);
console.log('\n| difference | count | examples |');
console.log('| --- | --- | --- |');
for (const [cls, { count, examples }] of [...classes].sort((a, b) => b[1].count - a[1].count)) console.log(`| ${cls} | ${count} | ${examples.join('; ')} |`);
