// Inline caret assertions for Java and Kotlin resolution: a case is real source, one or more files
// separated by `// --- path/File.java` lines, with assertions under the code they describe:
//
//   repository.save(order);
//   //         ^ reference.call; defined: Repository.java:7
//
// Each `//` line of carets is an assertion line; the caret's column is the position asserted on,
// in the nearest code line above. Assertions (several separated by `;`):
//   defined: <line> | <path>:<line>   the name resolves (an occurrence) to a symbol declared there
//   reference.<kind>                  the occurrence is a reference of that kind (call, new, read, …)
//   definition.<kind>                 a declaration of a symbol of that kind starts here
//   qname: <qualified name>           the resolved or declared symbol's qualified name
//   external: <qualified name>        the name resolves to an external (JDK, library) symbol
//   candidates: <line>, <path>:<line> only candidate references, to symbols declared there
//   unresolved                        neither an occurrence nor a candidate
//   <edge>: <qualified name>          the symbol declared here has an outgoing edge (extends,
//                                     implements, overrides) to that symbol
//   <edge>: none                      the symbol declared here has no outgoing edge of that kind
//   calls: <qualified name>           a calls edge to that symbol starts at this call site
import { occurrencesOf } from '@sextant/format';
import type { SnapshotFile } from '../../src/git/git-snapshot.ts';
import { IndexCollector, type CollectedSymbol } from '../../src/index-collector.ts';
import { isSkipped, type CompiledFile } from '../../src/language-indexer.ts';
import { JvmIndexer } from '../../src/jvm/jvm-indexer.ts';
import { Progress } from '../../src/progress.ts';

const FILE_MARKER = /^\s*\/\/ --- (\S+)\s*$/;
const ASSERTION_LINE = /^\s*\/\/(\s*\^\s*[^^]+)+$/;

export interface CaseFile {
  path: string;
  text: string;
}

interface Assertion {
  path: string;
  line: number;
  column: number;
  text: string;
}

/** Splits a case into its files; a case without a marker is one file named by `defaultPath`. */
export function caseFiles(source: string, defaultPath: string): CaseFile[] {
  const files: CaseFile[] = [];
  let current: { path: string; lines: string[] } | undefined;
  for (const line of source.replace(/^\n/, '').split('\n')) {
    const marker = FILE_MARKER.exec(line);
    if (marker) {
      if (current) files.push({ path: current.path, text: current.lines.join('\n') });
      current = { path: marker[1]!, lines: [] };
      continue;
    }
    current ??= { path: defaultPath, lines: [] };
    current.lines.push(line);
  }
  if (current) files.push({ path: current.path, text: current.lines.join('\n') });
  return files;
}

function assertionsOf(file: CaseFile): Assertion[] {
  const assertions: Assertion[] = [];
  let codeLine = 0;
  file.text.split('\n').forEach((text, index) => {
    if (!ASSERTION_LINE.test(text) || !text.includes('^')) {
      codeLine = index + 1;
      return;
    }
    if (codeLine === 0) throw new Error(`${file.path}:${index + 1}: caret assertion without a code line above it`);
    for (const match of text.matchAll(/\^\s*([^^]+)/g)) {
      for (const part of match[1]!.split(';')) {
        const assertion = part.trim();
        if (assertion) assertions.push({ path: file.path, line: codeLine, column: match.index! + 1, text: assertion });
      }
    }
  });
  return assertions;
}

export interface IndexedCase {
  collector: IndexCollector;
  compiled: Map<string, CompiledFile>;
}

/** Indexes the files with the real JVM indexer (tree-sitter grammars, queries, resolution). */
export async function indexCase(files: CaseFile[]): Promise<IndexedCase> {
  const snapshot: SnapshotFile[] = files.map((f) => ({ path: f.path, text: f.text, blob: '0'.repeat(40), bytes: Buffer.byteLength(f.text), mode: '100644' }) as SnapshotFile);
  const indexer = new JvmIndexer();
  const collector = new IndexCollector();
  const compiled = new Map<string, CompiledFile>();
  const context = { root: '/', texts: new Map(files.map((f) => [f.path, f.text])), collector, warnings: [], progress: new Progress(process.stderr, true), parsers: {} };
  for await (const file of indexer.index(snapshot.filter((f) => indexer.accepts(f.path)), context)) {
    if (isSkipped(file)) throw new Error(`${file.path} was skipped: ${file.detail}`);
    compiled.set(file.path, file);
  }
  return { collector, compiled };
}

/** Failures of every caret assertion of the case (empty when all hold). */
export async function caretFailures(source: string, defaultPath: string): Promise<string[]> {
  const files = caseFiles(source, defaultPath);
  const assertions = files.flatMap(assertionsOf);
  if (assertions.length === 0) return ['the case has no caret assertions'];
  const indexed = await indexCase(files);
  return assertions.map((a) => check(a, indexed)).filter((f): f is string => f !== undefined);
}

interface Occurrence {
  key: string;
  kind: string;
}

function occurrencesAt({ compiled }: IndexedCase, path: string, line: number, column: number): Occurrence[] {
  const file = compiled.get(path);
  if (!file) return [];
  const found: Occurrence[] = [];
  for (const { line: l, column: c, endLine: el, endColumn: ec, symbolIndex, kind } of occurrencesOf(file)) {
    if (l === line && c <= column && (el > line || column < ec || c === ec && column === c)) found.push({ key: file.syms[symbolIndex]!, kind });
  }
  return found;
}

function candidatesAt({ collector }: IndexedCase, path: string, line: number, column: number): CollectedSymbol[] {
  const found: CollectedSymbol[] = [];
  for (const symbol of collector.symbols.values()) {
    if (symbol.refs.some((r) => r.confidence === 'candidate' && r.site.path === path && r.site.line === line && r.site.column <= column && column < r.site.endColumn)) found.push(symbol);
  }
  return found;
}

function describe(indexed: IndexedCase, key: string): string {
  const info = indexed.collector.symbols.get(key)?.info;
  if (!info) return `<missing ${key}>`;
  const def = info.defs[0];
  return `${info.kind} ${info.qname}${info.external ? ' [external]' : def ? ` (${def[0]}:${def[1]})` : ''}`;
}

function declaredAt(symbol: CollectedSymbol | undefined, where: string, path: string): boolean {
  if (!symbol) return false;
  const [file, line] = where.includes(':') ? [where.slice(0, where.lastIndexOf(':')), where.slice(where.lastIndexOf(':') + 1)] : [path, where];
  return symbol.info.defs.some((d) => (d[0] === file || d[0].endsWith(`/${file}`)) && d[1] === Number(line));
}

function check(assertion: Assertion, indexed: IndexedCase): string | undefined {
  const { path, line, column, text } = assertion;
  const at = `${path}:${line}:${column} ${text}`;
  const here = occurrencesAt(indexed, path, line, column);
  const references = here.filter((o) => o.kind !== 'definition');
  const definitions = here.filter((o) => o.kind === 'definition');
  const found = () => (here.length ? here.map((o) => `${o.kind} ${describe(indexed, o.key)}`).join(', ') : 'no occurrence');
  const symbolOf = (o: Occurrence) => indexed.collector.symbols.get(o.key);
  const [name, value = ''] = text.includes(':') ? [text.slice(0, text.indexOf(':')).trim(), text.slice(text.indexOf(':') + 1).trim()] : [text, ''];

  if (name.startsWith('reference.')) {
    const kind = name.slice('reference.'.length);
    return references.some((o) => o.kind === kind) ? undefined : `${at}: found ${found()}`;
  }
  if (name.startsWith('definition.')) {
    const kind = name.slice('definition.'.length);
    return definitions.some((o) => symbolOf(o)?.info.kind === kind) ? undefined : `${at}: found ${found()}`;
  }
  switch (name) {
    case 'defined':
      return references.some((o) => declaredAt(symbolOf(o), value, path)) ? undefined : `${at}: found ${found()}`;
    case 'qname':
      return here.some((o) => symbolOf(o)?.info.qname === value) ? undefined : `${at}: found ${found()}`;
    case 'external':
      return references.some((o) => symbolOf(o)?.info.external && symbolOf(o)?.info.qname === value) ? undefined : `${at}: found ${found()}`;
    case 'unresolved': {
      const candidates = candidatesAt(indexed, path, line, column);
      return references.length === 0 && candidates.length === 0 ? undefined
        : `${at}: found ${found()}${candidates.length ? ` and candidates ${candidates.map((c) => describe(indexed, c.info.key)).join(', ')}` : ''}`;
    }
    case 'candidates': {
      const candidates = candidatesAt(indexed, path, line, column);
      const wanted = value.split(',').map((w) => w.trim()).filter(Boolean);
      const ok = references.length === 0 && candidates.length === wanted.length && wanted.every((w) => candidates.some((c) => declaredAt(c, w, path)));
      return ok ? undefined : `${at}: found ${found()}; candidates ${candidates.map((c) => describe(indexed, c.info.key)).join(', ') || 'none'}`;
    }
    case 'calls': {
      // The caller is the enclosing declaration; the edge's site is the call.
      const callees = [...indexed.collector.symbols.values()].filter((s) => s.info.qname === value);
      const sited = callees.some((s) => s.edges.some((e) => !e.out && e.kind === 'calls' && e.site?.path === path && e.site.line === line && e.site.column <= column && column < e.site.endColumn));
      return sited ? undefined : `${at}: no calls edge to ${value} from this site`;
    }
    case 'extends':
    case 'implements':
    case 'overrides': {
      const owners = [...definitions, ...references].map(symbolOf);
      const edges = owners.flatMap((s) => s?.edges.toArray().filter((e) => e.out && e.kind === name) ?? []);
      if (value === 'none') return owners.length > 0 && edges.length === 0 ? undefined : `${at}: ${name} edges go to ${edges.map((e) => describe(indexed, e.peer)).join(', ') || 'nothing'}`;
      return edges.some((e) => indexed.collector.symbols.get(e.peer)?.info.qname === value) ? undefined
        : `${at}: ${name} edges go to ${edges.map((e) => describe(indexed, e.peer)).join(', ') || 'nothing'}`;
    }
    default:
      return `${at}: unknown assertion (see indexer/test/jvm/caret-cases.ts)`;
  }
}
