// Precision and recall of the index's find_references against the TypeScript language service's
// findReferences, the answer an editor gives. The language service runs over the same programs the
// indexer builds (SnapshotHost and planPrograms from src/ts, the compiler bundled in ts-morph, the
// files read from the same git commit), on a seeded random sample of the declarations in the
// index's names shard. Both sides are compared on (path, line, column) of every entry.
//
// Comparison rules (see bench/README.md):
// - ours: find_references with includeDeclaration, every page;
// - theirs: every entry of every group findReferences returns at the declaration's name (the
//   language service also returns the references of related symbols, such as the interface member
//   a class member implements, as groups of their own: they count, and misses that come only from
//   such a group are labelled so);
// - entries outside the repository (the TypeScript lib, node_modules) are out of scope.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFile } from 'node:fs/promises';
import { ts } from 'ts-morph';
import { cliLine, formatSymbolId, SextantError, TS_JS_EXTENSIONS, type NameShard } from '@sextant/format';
import { findReferences, IndexReader, nameEntry, ShardCache, type NameEntry } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { listTrackedFiles, readBlobs } from '../src/git/git-snapshot.ts';
import { planPrograms, type PlannedProgram } from '../src/ts/project-plan.ts';
import { LIB_FOLDER, SnapshotHost } from '../src/ts/snapshot-host.ts';
import { classifyMiss, LS_BLIND_SPOTS, type MissSide } from './miss-causes.ts';

export interface AccuracyOptions {
  /** The corpus repository (a git checkout) and the index built from it. */
  repo: string;
  index: string;
  sample: number;
  seed: number;
  maxFileBytes: number;
  log?: (line: string) => void;
}

export interface Miss {
  side: MissSide;
  path: string;
  line: number;
  column: number;
  source: string;
  cause: string;
  detail?: string;
  declaration: { name: string; kind: string; qname: string; path: string; line: number; column: number };
}

export interface DeclarationResult {
  key: string;
  name: string;
  kind: string;
  path: string;
  line: number;
  column: number;
  ours: number;
  theirs: number;
  both: number;
}

export interface AccuracyReport {
  repo: string;
  commit: string;
  seed: number;
  candidates: number;
  sampled: number;
  ours: number;
  theirs: number;
  both: number;
  precision: number;
  recall: number;
  declarations: DeclarationResult[];
  misses: Miss[];
  /** Seconds spent building the language service's program and answering findReferences. */
  languageServiceSeconds: number;
}

/** mulberry32: a small seeded PRNG, so a sample can be drawn again from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded sample of `count` distinct repository declarations from the names shard (externals excluded). */
export function sampleDeclarations(names: NameShard, count: number, seed: number): { candidates: number; sample: NameEntry[] } {
  const byKey = new Map<string, NameEntry>();
  for (let i = 0; i < names.size; i++) {
    if (names.isExternal(i)) continue;
    const entry = nameEntry(names, i);
    if (entry.path && entry.line > 0 && !byKey.has(entry.key)) byKey.set(entry.key, entry);
  }
  // Names are stored sorted by name then key, so this order is the same on every machine.
  const pool = [...byKey.values()];
  const random = seededRandom(seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return { candidates: pool.length, sample: pool.slice(0, count) };
}

export interface Service {
  plan: PlannedProgram;
  service: ts.LanguageService;
}

export interface CorpusServices {
  host: SnapshotHost;
  /** The files of the commit, by repository-relative path. */
  texts: Map<string, string>;
  /** One language service per program the build plans; a file is owned by one of them. */
  services: Service[];
}

/**
 * Language services over the same programs `indexer build` makes of a commit: the tracked files at
 * the commit read from git (under the size limit), SnapshotHost and planPrograms from src/ts. The
 * task benchmark's answer keys come from these too.
 */
export async function corpusLanguageServices(repo: string, commit: string, maxFileBytes: number): Promise<CorpusServices> {
  const root = resolve(repo);
  const tracked = await listTrackedFiles(root, commit);
  const blobs = await readBlobs(root, tracked.files.filter((f) => f.bytes <= maxFileBytes));
  const texts = new Map(blobs.files.map((f) => [f.path, f.text]));
  const host = new SnapshotHost(root, texts);
  const sources = [...texts.keys()].filter((p) => TS_JS_EXTENSIONS.some((ext) => p.endsWith(ext)));
  const services = planPrograms(host, sources, []).map((plan) => languageService(host, plan));
  return { host, texts, services };
}

function languageService(host: SnapshotHost, plan: PlannedProgram): Service {
  const lsHost: ts.LanguageServiceHost = {
    getCompilationSettings: () => plan.options,
    getProjectReferences: () => plan.projectReferences,
    getScriptFileNames: () => plan.rootNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (fileName) => {
      const text = host.readFile(fileName);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => host.root,
    getDefaultLibFileName: (options) => `${LIB_FOLDER}/${ts.getDefaultLibFileName(options)}`,
    fileExists: host.fileExists,
    readFile: host.readFile,
    readDirectory: host.readDirectory,
    directoryExists: host.directoryExists,
    realpath: host.realpath,
    getDirectories: (dir) => host.entries(dir).directories,
    useCaseSensitiveFileNames: () => true,
  };
  return { plan, service: ts.createLanguageService(lsHost, ts.createDocumentRegistry(true, host.root)) };
}

interface Entry {
  path: string;
  line: number;
  column: number;
  /** Whether the entry came from the group of the sampled declaration itself. */
  own: boolean;
  group?: string;
  definition?: boolean;
}

const at = (e: { path: string; line: number; column: number }) => `${e.path}:${e.line}:${e.column}`;

export async function measureReferenceAccuracy(options: AccuracyOptions): Promise<AccuracyReport> {
  const log = options.log ?? (() => {});
  const reader = await IndexReader.open(new DirShardSource(options.index), new ShardCache(1 << 30));
  const commit = reader.commit;
  const { host, texts, services } = await corpusLanguageServices(options.repo, commit, options.maxFileBytes);
  const relative = (fileName: string) => host.relative(fileName);
  const lines = new Map<string, string[]>();
  const lineOf = (path: string, line: number) => {
    let list = lines.get(path);
    if (!list) lines.set(path, (list = (texts.get(path) ?? '').split(/\r\n|\n|\r/)));
    return list[line - 1] ?? '';
  };
  const owner = new Map<string, Service>();
  for (const s of services) for (const path of s.plan.owned) owner.set(path, s);

  const names = await reader.names();
  const { candidates, sample } = sampleDeclarations(names, options.sample, options.seed);
  log(`${candidates} declarations in the names shard; sampling ${sample.length} with seed ${options.seed}`);

  const declarations: DeclarationResult[] = [];
  const misses: Miss[] = [];
  let lsSeconds = 0;
  let totalOurs = 0;
  let totalTheirs = 0;
  let totalBoth = 0;

  for (const [n, decl] of sample.entries()) {
    const ours = new Map<string, { path: string; line: number; column: number }>();
    const ourDefs = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await findReferences(reader, { symbolId: formatSymbolId(decl.key, commit) }, { includeDeclaration: true, limit: 2000, cursor });
      for (const hit of page.references) {
        ours.set(at(hit), { path: hit.path, line: hit.line, column: hit.column });
        if (hit.kind === 'definition') ourDefs.add(at(hit));
      }
      cursor = page.nextCursor;
    } while (cursor);

    const service = owner.get(decl.path);
    const theirs = new Map<string, Entry>();
    const theirDefs = new Set<string>();
    if (service) {
      const started = performance.now();
      const program = service.service.getProgram()!;
      const sourceFile = program.getSourceFile(host.absolute(decl.path));
      if (sourceFile) {
        const position = sourceFile.getPositionOfLineAndCharacter(decl.line - 1, decl.column - 1);
        // A module (file) symbol has no name to stand on: its references are the specifiers that
        // import or re-export the file, which the language service answers with getFileReferences.
        const groups = decl.kind === 'module' ? fileReferences(service.service, sourceFile)
          : service.service.findReferences(sourceFile.fileName, position) ?? [];
        for (const group of groups) {
          const def = group.definition;
          const defPath = host.relative(def.fileName);
          const defSite = defPath !== undefined ? locate(program, def.fileName, def.textSpan.start, defPath) : undefined;
          const sites = group.references.map((ref) => {
            const path = host.relative(ref.fileName);
            return path === undefined ? undefined : { ...locate(program, ref.fileName, ref.textSpan.start, path), definition: ref.isDefinition === true };
          });
          // The declaration's own group is the one holding the position asked about (or one of our
          // declarations); alias groups are its imports and re-exports under another name.
          const own = def.kind === ts.ScriptElementKind.alias
            || sites.some((site) => site !== undefined && (at(site) === at(decl) || ourDefs.has(at(site))));
          const label = `${def.kind} ${def.name.replace(/\s+/g, ' ').slice(0, 80)}${defSite ? ` (${at(defSite)})` : ' (outside the repository)'}`;
          for (const site of sites) {
            if (site === undefined) continue; // the lib, node_modules: out of scope
            if (own && site.definition && def.kind !== ts.ScriptElementKind.alias) theirDefs.add(at(site));
            const previous = theirs.get(at(site));
            if (!previous || (own && !previous.own)) theirs.set(at(site), { ...site, own, group: own ? undefined : label });
          }
        }
      }
      lsSeconds += (performance.now() - started) / 1000;
    }

    let both = 0;
    for (const key of ours.keys()) if (theirs.has(key)) both++;
    totalOurs += ours.size;
    totalTheirs += theirs.size;
    totalBoth += both;
    declarations.push({ key: decl.key, name: decl.name, kind: decl.kind, path: decl.path, line: decl.line, column: decl.column, ours: ours.size, theirs: theirs.size, both });

    const program = service?.service.getProgram();
    const declaration = { name: decl.name, kind: decl.kind, qname: decl.qname, path: decl.path, line: decl.line, column: decl.column };
    const sameLine = (side: Map<string, { path: string; line: number; column: number }>, site: { path: string; line: number; column: number }) =>
      [...side.values()].some((o) => o.path === site.path && o.line === site.line && Math.abs(o.column - site.column) <= 2);
    // Declarations of one symbol that the index keeps as several symbols (an overload
    // implementation apart from its signatures): every reference of the others is then missing.
    const split = [...theirDefs].filter((d) => !ourDefs.has(d)).length > 0 && [...ourDefs].every((d) => theirDefs.has(d))
      ? `symbol split: the index has ${ourDefs.size} of the LS's ${theirDefs.size} declarations (overloads, merged declarations)`
      : undefined;
    for (const entry of theirs.values()) {
      if (ours.has(at(entry))) continue;
      const { cause, detail } = split && entry.own ? { cause: split.replace(/ \d+ of the LS's \d+/, ' some of the'), detail: split }
        : program
        ? classifyMiss({ side: 'missing', program, service: service!.service, fileName: host.absolute(entry.path), site: entry, group: entry.group, nearby: sameLine(ours, entry), relative, declaration, languageServiceEmpty: false })
        : { cause: 'no program', detail: undefined };
      misses.push({ side: 'missing', path: entry.path, line: entry.line, column: entry.column, source: lineOf(entry.path, entry.line), cause, detail, declaration });
    }
    for (const site of ours.values()) {
      if (theirs.has(at(site))) continue;
      const { cause, detail } = program
        ? classifyMiss({ side: 'extra', program, service: service!.service, fileName: host.absolute(site.path), site, nearby: sameLine(theirs, site), relative, declaration, languageServiceEmpty: theirs.size === 0 })
        : { cause: 'declaration outside every program', detail: undefined };
      misses.push({ side: 'extra', path: site.path, line: site.line, column: site.column, source: lineOf(site.path, site.line), cause, detail, declaration });
    }
    if ((n + 1) % 50 === 0) log(`  ${n + 1}/${sample.length} declarations, ${lsSeconds.toFixed(1)}s in the language service`);
  }

  return {
    repo: reader.repo, commit, seed: options.seed, candidates, sampled: sample.length,
    ours: totalOurs, theirs: totalTheirs, both: totalBoth,
    precision: totalOurs ? totalBoth / totalOurs : 1,
    recall: totalTheirs ? totalBoth / totalTheirs : 1,
    declarations, misses, languageServiceSeconds: lsSeconds,
  };
}

/** getFileReferences as one group whose definition is the file itself (its first character). */
function fileReferences(service: ts.LanguageService, sourceFile: ts.SourceFile): ts.ReferencedSymbol[] {
  const textSpan = { start: 0, length: 0 };
  const definition = {
    fileName: sourceFile.fileName, textSpan, kind: ts.ScriptElementKind.moduleElement, name: sourceFile.fileName,
    containerKind: ts.ScriptElementKind.unknown, containerName: '', displayParts: [],
  } satisfies ts.ReferencedSymbolDefinitionInfo;
  const references = service.getFileReferences(sourceFile.fileName).map((entry) => ({ ...entry, isDefinition: false }));
  return [{ definition, references: [{ fileName: sourceFile.fileName, textSpan, isWriteAccess: false, isDefinition: true }, ...references] }];
}

function locate(program: ts.Program, fileName: string, start: number, path: string): { path: string; line: number; column: number } {
  const sourceFile = program.getSourceFile(fileName);
  const lc = sourceFile ? sourceFile.getLineAndCharacterOfPosition(start) : { line: -1, character: -1 };
  return { path, line: lc.line + 1, column: lc.character + 1 };
}

const percent = (x: number) => `${(x * 100).toFixed(2)}%`;

/** The report as text: totals, misses counted by cause, then up to `limit` misses spread over the causes. */
export function formatAccuracy(name: string, report: AccuracyReport, limit: number): string {
  const out: string[] = [];
  const perfect = report.declarations.filter((d) => d.both === d.ours && d.both === d.theirs).length;
  out.push(`${name}: precision ${percent(report.precision)} (${report.both}/${report.ours}), recall ${percent(report.recall)} (${report.both}/${report.theirs}) `
    + `over ${report.sampled} declarations (of ${report.candidates}, seed ${report.seed}); ${perfect} match exactly; `
    + `language service ${report.languageServiceSeconds.toFixed(1)}s`);
  // The two policy questions, answered both ways: should JSDoc mentions count, and should the
  // references of related symbols (overriding and implementing members) count.
  const jsdoc = report.misses.filter((m) => m.side === 'missing' && m.cause.startsWith('in a JSDoc')).length;
  const related = report.misses.filter((m) => m.side === 'missing' && m.cause.startsWith('related symbol')).length;
  out.push(`  recall without JSDoc mentions: ${percent(report.both / Math.max(1, report.theirs - jsdoc))}; `
    + `without JSDoc mentions and related symbols' groups: ${percent(report.both / Math.max(1, report.theirs - jsdoc - related))}`);
  const blind = Object.values(LS_BLIND_SPOTS).map((cause) => report.misses.filter((m) => m.side === 'extra' && m.cause === cause).length);
  out.push(`  precision without the language service's blind spots (${blind.join(' + ')} extras: files it does not search, sites whose definition it gives as the declaration itself, members with computed names): `
    + `${percent(report.both / Math.max(1, report.ours - blind.reduce((a, b) => a + b, 0)))}`);
  const causes = new Map<string, Miss[]>();
  for (const miss of report.misses) {
    const key = `${miss.side === 'missing' ? 'missing (LS only)' : 'extra (ours only)'}: ${miss.cause}`;
    (causes.get(key) ?? causes.set(key, []).get(key)!).push(miss);
  }
  const ranked = [...causes.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  if (ranked.length === 0) return out.join('\n');
  out.push('  misses by cause (references, declarations):');
  for (const [cause, list] of ranked) {
    out.push(`    ${String(list.length).padStart(6)}  ${String(new Set(list.map((m) => at(m.declaration))).size).padStart(4)}  ${cause}`);
  }
  // Round robin over causes, one declaration's misses at most twice per cause, so the list shows breadth.
  const shown: Miss[][] = ranked.map(([, list]) => {
    const perDecl = new Map<string, number>();
    return list.filter((m) => {
      const k = at(m.declaration);
      const seen = perDecl.get(k) ?? 0;
      perDecl.set(k, seen + 1);
      return seen < 2;
    });
  });
  const picked: [string, Miss][] = [];
  for (let round = 0; picked.length < limit; round++) {
    let any = false;
    for (const [i, list] of shown.entries()) {
      if (list[round] && picked.length < limit) {
        picked.push([ranked[i]![0], list[round]!]);
        any = true;
      }
    }
    if (!any) break;
  }
  picked.sort((a, b) => ranked.findIndex((r) => r[0] === a[0]) - ranked.findIndex((r) => r[0] === b[0]));
  let current = '';
  out.push(`  first ${picked.length} of ${report.misses.length} misses:`);
  for (const [cause, miss] of picked) {
    if (cause !== current) {
      out.push(`  [${cause}]`);
      current = cause;
    }
    const d = miss.declaration;
    out.push(`    ${miss.path}:${miss.line}:${miss.column}  ${miss.source.trim().slice(0, 140)}`);
    out.push(`        of ${d.kind} ${d.qname} (${d.path}:${d.line}:${d.column})${miss.detail ? `; ${miss.detail}` : ''}`);
  }
  return out.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      repo: { type: 'string' },
      index: { type: 'string' },
      name: { type: 'string' },
      sample: { type: 'string', default: '300' },
      seed: { type: 'string', default: '1' },
      misses: { type: 'string', default: '40' },
      'max-file-bytes': { type: 'string', default: '1000000' },
      json: { type: 'string' },
    },
    strict: true,
  });
  if (!values.repo || !values.index) {
    process.stderr.write(`${cliLine(new SextantError('INVALID_ARGUMENT', '--repo and --index are required.', 'Pass the corpus repository and the index built from it.'))}\n`);
    return 2;
  }
  const report = await measureReferenceAccuracy({
    repo: values.repo, index: values.index, sample: Number(values.sample), seed: Number(values.seed),
    maxFileBytes: Number(values['max-file-bytes']), log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${formatAccuracy(values.name ?? values.repo, report, Number(values.misses))}\n`);
  if (values.json) await writeFile(values.json, `${JSON.stringify(report, null, 1)}\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
