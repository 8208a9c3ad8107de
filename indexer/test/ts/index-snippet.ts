// Indexes a few in-memory files with the real TypeScript indexer (no git: the files are the
// snapshot), and checks caret assertions written under the code:
//
//   submit({ id: 'a1' });
//   //       ^ write Order.id
//
// A caret names a reference kind and the qualified name of a symbol that must occur there, so a
// test states what the index says next to the source it says it about.
import { occurrencesOf } from '@sextant/format';
import { IndexCollector } from '../../src/index-collector.ts';
import { isSkipped, type CompiledFile, type IndexedFile } from '../../src/language-indexer.ts';
import { Progress } from '../../src/progress.ts';
import { typescriptIndexer } from '../../src/ts/typescript-indexer.ts';

/** A root no file system has: node_modules lookups under it find nothing. */
export const SNIPPET_ROOT = '/sextant-snippet/repo';

export interface SnippetOccurrence {
  line: number;
  column: number;
  kind: string;
  key: string;
  qname: string;
}

export interface SnippetIndex {
  collector: IndexCollector;
  files: Map<string, CompiledFile>;
  warnings: string[];
  /** Occurrences starting at a position (1-based line and column). */
  at(path: string, line: number, column: number): SnippetOccurrence[];
  /** The one repository symbol with this qualified name (throws when there is not exactly one). */
  symbol(qname: string): ReturnType<IndexCollector['symbols']['get']> & {};
}

/** `root`: where the repository is, for a test that puts node_modules on disk beside the in-memory files. */
export function indexSnippet(files: Record<string, string>, root = SNIPPET_ROOT): SnippetIndex {
  const texts = new Map(Object.entries(files));
  const collector = new IndexCollector();
  const warnings: string[] = [];
  const sources = [...texts].filter(([path]) => typescriptIndexer.accepts(path)).map(([path, text]) => ({ path, blob: '', bytes: text.length, text }));
  const compiled = new Map<string, CompiledFile>();
  const result = typescriptIndexer.index(sources, { root, texts, collector, warnings, progress: new Progress(process.stderr, true), parsers: {} });
  for (const file of result as Iterable<IndexedFile>) {
    if (isSkipped(file)) throw new Error(`${file.path} was skipped: ${file.detail}`);
    compiled.set(file.path, file);
  }
  return {
    collector,
    files: compiled,
    warnings,
    at(path, line, column) {
      const file = compiled.get(path);
      if (!file) throw new Error(`${path} was not indexed`);
      const found: SnippetOccurrence[] = [];
      for (const o of occurrencesOf(file)) {
        if (o.line !== line || o.column !== column) continue;
        const key = file.syms[o.symbolIndex]!;
        found.push({ line, column, kind: o.kind, key, qname: collector.symbols.get(key)?.info.qname ?? `<missing ${key}>` });
      }
      return found;
    },
    symbol(qname) {
      const matches = [...collector.symbols.values()].filter((s) => s.info.qname === qname && !s.info.external);
      if (matches.length !== 1) throw new Error(`${matches.length} symbols named ${qname}: ${matches.map((s) => `${s.info.kind} ${s.info.path}`).join(', ')}`);
      return matches[0]!;
    },
  };
}

const ASSERTION_LINE = /^\s*\/\/(\s*\^\s*[a-z]+ \S+)+\s*$/;
const CARET = /\^\s*([a-z]+) (\S+)/g;

/**
 * Failures of the caret assertions in every file (empty when all hold). A caret says: an occurrence
 * of this kind, of a symbol with this qualified name (`Array.map`, or `ext:Array.map` for an external
 * one), starts at this column of the nearest code line above.
 */
export function caretFailures(index: SnippetIndex, files: Record<string, string>): string[] {
  const failures: string[] = [];
  let carets = 0;
  for (const [path, text] of Object.entries(files)) {
    let codeLine = 0;
    text.split(/\r\n|\n/).forEach((line, i) => {
      if (!ASSERTION_LINE.test(line)) {
        codeLine = i + 1;
        return;
      }
      for (const match of line.matchAll(CARET)) {
        carets++;
        const column = match.index + 1;
        const [kind, name] = [match[1]!, match[2]!];
        const external = name.startsWith('ext:');
        const here = index.at(path, codeLine, column);
        const ok = here.some((o) => o.kind === kind && o.qname === (external ? name.slice(4) : name)
          && Boolean(index.collector.symbols.get(o.key)?.info.external) === external);
        if (!ok) failures.push(`${path}:${codeLine}:${column} expected ${kind} ${name}, found ${here.map((o) => `${o.kind} ${o.qname}`).join(', ') || 'nothing'}`);
      }
    });
  }
  if (carets === 0) failures.push('no caret assertions');
  return failures;
}
