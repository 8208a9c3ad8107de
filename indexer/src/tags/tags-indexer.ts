// Syntactic navigation for the languages no compiler or SCIP index resolves (Python, Go, Rust, C#,
// Ruby, PHP, C, C++, Swift, Scala, Bash), as GitHub's code navigation does it: declarations and
// outlines from each language's tags query, references matched to declarations by name alone.
// Every reference is a `candidate` of each same-named declaration of its language, narrowed by the
// file's imports where the language has a scoping rule (tags-scoping.ts) (none is ever
// stored as resolved, so no position lookup or call hierarchy presents a guess as the answer); a
// name declared nowhere, or so often that a name match says nothing, is kept as unresolved.
import { symbolKey, pushOccurrence, type OutlineNode, type ReferenceKind, type SymbolKind } from '@sextant/format';
import { Parser } from 'web-tree-sitter';
import { analysisFailed } from '../analysis-failure.ts';
import type { SnapshotFile } from '../git/git-snapshot.ts';
import type { CompiledFile, IndexContext, IndexedFile, LanguageIndexer, UnresolvedName } from '../language-indexer.ts';
import { extractTags, type TagDef, type TagFile } from './tags-extractor.ts';
import { SCOPE_RULES } from './tags-scoping.ts';
import { headersOf, loadTagsTagger, tagsGrammarOf, type Tagger, type TagsLanguage } from './tags-grammars.ts';
import { ensureParserInit } from '../syntax/tree-sitter-runtime.ts';

/** A pathological (generated, minified) file must not stall a whole run: the limit of its parse, and of its tags query. */
const PARSE_TIMEOUT_MS = 10_000;
/**
 * A name declared more often than this in one language says nothing about which declaration a use
 * means (`get`, `new`, `init`): its uses are kept as unresolved rather than as that many candidates.
 * Method names shared by a few dozen classes (`render`, `Equal`) still are candidates.
 */
export const MAX_CANDIDATES = 32;

const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum', 'type', 'module', 'namespace']);
const CALLABLE_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method', 'constructor']);
/** Which declarations a use of each kind can name: a call names something callable or a type (a constructor call). */
export function canName(use: ReferenceKind, kind: SymbolKind): boolean {
  switch (use) {
    case 'call':
    case 'new':
    case 'decorator':
      return CALLABLE_KINDS.has(kind) || TYPE_KINDS.has(kind);
    case 'type':
    case 'inherit':
      // A variable may be a type alias (Python's `StyleType = Union[…]`, a TypeVar).
      return TYPE_KINDS.has(kind) || kind === 'variable' || kind === 'constant';
    default:
      return true;
  }
}

interface Extracted {
  file: SnapshotFile;
  lang: TagsLanguage;
  tags: TagFile;
  /** Key of each declaration (parallel to tags.defs). */
  keys: string[];
}

export class TagsIndexer implements LanguageIndexer {
  readonly name = 'tags';
  readonly precision = 'syntactic' as const;
  readonly reusesFiles = false;

  accepts(path: string): boolean {
    return tagsGrammarOf(path) !== undefined;
  }

  reads(): boolean {
    return false;
  }

  async *index(files: SnapshotFile[], { collector, parsers, progress }: IndexContext): AsyncIterable<IndexedFile> {
    const headers = headersOf(files.map((f) => f.path));
    const grammars = new Map(files.map((f) => [f.path, tagsGrammarOf(f.path, headers)!]));
    const taggers = new Map<TagsLanguage, Tagger>();
    for (const grammar of new Set(grammars.values())) {
      const tagger = await loadTagsTagger(grammar);
      taggers.set(grammar.lang, tagger);
      parsers[grammar.pkg] = tagger.version;
    }
    // The runtime the grammars run in (its version changes how they parse as theirs does).
    if (taggers.size > 0) parsers['web-tree-sitter'] = await ensureParserInit();
    const started = performance.now();
    const extracted: Extracted[] = [];
    const parser = new Parser();
    try {
      for (const file of files) {
        const tagger = taggers.get(grammars.get(file.path)!.lang)!;
        try {
          extracted.push({ file, lang: tagger.grammar.lang, tags: extract(parser, tagger, file.text), keys: [] });
        } catch (error) {
          yield analysisFailed(file.path, `the ${tagger.grammar.lang} tags query`, error);
        }
      }
    } finally {
      parser.delete();
    }

    // Every declaration is named before any reference is matched: a use may precede its declaration.
    const byName = new Map<string, string[]>();
    for (const entry of extracted) {
      const seen = new Map<string, number>();
      // A method declared for a type outside its body (Go, Rust) is named and held by that type when the file declares it.
      const types = new Map<string, number>();
      entry.tags.defs.forEach((def, index) => {
        if (def.parent < 0 && TYPE_KINDS.has(def.kind) && !types.has(def.name)) types.set(def.name, index);
      });
      const qnames: string[] = entry.tags.defs.map(() => '');
      entry.tags.defs.forEach((def, index) => {
        qnames[index] = def.parent >= 0 ? `${qnames[def.parent]}.${def.name}` : def.receiver !== undefined ? `${def.receiver}.${def.name}` : def.name;
        // The same qualified name twice in a file (a redefinition, overloads): an ordinal tells them apart.
        const identity = `tags|${entry.lang}|${entry.file.path}|${qnames[index]}|${def.kind}`;
        const ordinal = seen.get(identity) ?? 0;
        seen.set(identity, ordinal + 1);
        entry.keys.push(symbolKey(ordinal ? `${identity}|${ordinal}` : identity));
      });
      // Keyed first, then stored: a method's type may be declared after it.
      entry.tags.defs.forEach((def, index) => {
        const holder = def.parent >= 0 ? def.parent : def.receiver !== undefined ? types.get(def.receiver) : undefined;
        const key = entry.keys[index]!;
        collector.addSymbol({
          key, name: def.name, kind: def.kind, qname: qnames[index]!, lang: entry.lang, path: entry.file.path, mods: 0,
          ...(def.signature ? { signature: def.signature } : {}),
          ...(holder !== undefined ? { container: entry.keys[holder]! } : {}),
          defs: [[entry.file.path, def.at.line, def.at.column, def.at.endLine, def.at.endColumn]],
        });
        const name = `${entry.lang}|${def.name}`;
        (byName.get(name) ?? byName.set(name, []).get(name)!).push(key);
      });
    }

    let candidates = 0;
    let unresolvedCount = 0;
    for (const entry of extracted) {
      try {
        const compiled = collector.atomically(() => this.emit(entry, byName, collector));
        candidates += compiled.refs;
        unresolvedCount += compiled.file.unresolved!.length;
        yield compiled.file;
      } catch (error) {
        yield analysisFailed(entry.file.path, `the ${entry.lang} tags indexer`, error);
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    progress.log(`  ${extracted.length} files by tags (${[...taggers.keys()].join(', ')}) in ${seconds}s: ${candidates} name-only references, ${unresolvedCount} names declared nowhere or too often`);
  }

  private emit(entry: Extracted, byName: ReadonlyMap<string, string[]>, collector: IndexContext['collector']): { file: CompiledFile; refs: number } {
    const { file, tags, keys, lang } = entry;
    const syms: string[] = [];
    const symIndex = new Map<string, number>();
    const symbolOf = (key: string) => {
      let index = symIndex.get(key);
      if (index === undefined) {
        index = syms.length;
        symIndex.set(key, index);
        syms.push(key);
      }
      return index;
    };
    const occ: number[] = [];
    tags.defs.forEach((def, i) => pushOccurrence(occ, { ...def.at, symbolIndex: symbolOf(keys[i]!), kind: 'definition' }));

    const unresolved: UnresolvedName[] = [];
    const scope = SCOPE_RULES[lang]?.(file.path, tags);
    let refs = 0;
    for (const ref of tags.refs) {
      if (scope?.namesModule(ref)) continue;
      const from = ref.owner >= 0 ? keys[ref.owner] : undefined;
      const { name, keep } = scope?.lookup(ref) ?? { name: ref.name };
      let named = (byName.get(`${lang}|${name}`) ?? []).filter((key) => canName(ref.kind, collector.symbols.get(key)!.info.kind));
      if (keep) {
        const kept = named.filter((key) => {
          const { path, container } = collector.symbols.get(key)!.info;
          return path !== undefined && keep({ path, container });
        });
        if (kept.length > 0) named = kept;
      }
      if (named.length === 0 && scope?.provided?.(ref)) continue;
      if (named.length === 0 || named.length > MAX_CANDIDATES) {
        unresolved.push({ name: ref.name, line: ref.line, column: ref.column, endLine: ref.endLine, endColumn: ref.endColumn, kind: ref.kind, ...(from ? { from } : {}) });
        continue;
      }
      const site = { path: file.path, line: ref.line, column: ref.column, endLine: ref.endLine, endColumn: ref.endColumn };
      for (const key of named) collector.addReference(key, site, ref.kind, from, 'candidate');
      refs++;
    }
    return { file: { path: file.path, lang, syms, occ, problems: tags.problems, outline: outlineOf(tags.defs, keys, symbolOf), unresolved }, refs };
  }
}

function extract(parser: Parser, tagger: Tagger, text: string): TagFile {
  parser.setLanguage(tagger.language);
  const deadline = performance.now() + PARSE_TIMEOUT_MS;
  // Returning true from the progress callback cancels the parse (web-tree-sitter's typings say void).
  const tree = parser.parse(text, null, { progressCallback: () => performance.now() > deadline });
  if (!tree) {
    parser.reset();
    return { defs: [], refs: [], imports: [], problems: [{ source: 'syntax', severity: 'warning', message: `Syntax check failed: gave up after ${PARSE_TIMEOUT_MS} ms`, line: 1, column: 1, endLine: 1, endColumn: 1 }] };
  }
  try {
    return extractTags(tree, tagger.query, text, PARSE_TIMEOUT_MS);
  } finally {
    tree.delete();
  }
}

/** The file's declarations, nested as declared. */
function outlineOf(defs: readonly TagDef[], keys: readonly string[], symbolOf: (key: string) => number): OutlineNode[] {
  const roots: OutlineNode[] = [];
  const nodes: OutlineNode[] = [];
  defs.forEach((def, i) => {
    const node: OutlineNode = {
      name: def.name, kind: def.kind, sym: symbolOf(keys[i]!),
      range: [def.range.line, def.range.column, def.range.endLine, def.range.endColumn], at: [def.at.line, def.at.column], children: [],
    };
    nodes.push(node);
    (def.parent >= 0 ? nodes[def.parent]!.children : roots).push(node);
  });
  return roots;
}

export const tagsIndexer = new TagsIndexer();
