// The files whose SCIP documents matched them (scip-import.ts), indexed from those documents:
// symbols with their declarations, every occurrence of a known symbol as an exact reference and a
// file occurrence, calls, the edges SCIP relationships imply, and each file's outline. Nothing is
// resolved here: the SCIP indexer (a compiler-backed one) did that.
import { pushOccurrence, type Language, type OutlineNode, type ReferenceKind, type SymbolKind } from '@sextant/format';
import type { SnapshotFile } from '../git/git-snapshot.ts';
import type { IndexCollector, Site } from '../index-collector.ts';
import type { CompiledFile, IndexContext, IndexedFile, LanguageIndexer, UnresolvedName } from '../language-indexer.ts';
import { analysisFailed } from '../analysis-failure.ts';
import { SymbolRole, type SymbolInformation } from './scip_pb.ts';
import { textOf, type CheckedDocument, type CheckedOccurrence, type Span } from './scip-document.ts';
import { parentSymbol, parseScipSymbol } from './scip-symbol.ts';
import { CALLABLE_KINDS, pythonModule, scipKey, symbolFacts, TYPE_KINDS, type ScipSymbolFacts } from './scip-symbols.ts';

const DEFINES = SymbolRole.Definition | SymbolRole.ForwardDefinition;
/**
 * Kinds whose enclosing range makes them the `from` of the references inside. A module (a file, as
 * scip-typescript defines it with the whole file as its enclosing range) is the `from` and caller
 * of its top-level code, as in Sextant's own TypeScript index; a namespace is not.
 */
const SCOPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'type', 'enum', 'function', 'method', 'constructor', 'getter', 'setter', 'property', 'field', 'variable', 'constant', 'local', 'enumMember', 'module']);
const CALLER_KINDS: ReadonlySet<SymbolKind> = new Set([...CALLABLE_KINDS, 'module']);

export interface ScipDocuments {
  /** The documents that matched their files, by path. */
  accepted: ReadonlyMap<string, CheckedDocument>;
  /** Symbols defined in refused documents: references to them name a symbol this index does not hold. */
  refusedDefinitions: ReadonlySet<string>;
  /** SymbolInformation of every index's external_symbols and documents, by symbol (the first met). */
  information: ReadonlyMap<string, SymbolInformation>;
  /** The indexers that wrote them, as `scip-typescript 0.4.0`. */
  tools: readonly string[];
}

interface Defined {
  key: string;
  facts: ScipSymbolFacts;
}

export class ScipIndexer implements LanguageIndexer {
  readonly name: string;
  readonly precision = 'scip' as const;
  readonly reusesFiles = false;

  constructor(private readonly documents: ScipDocuments) {
    this.name = `scip (${documents.tools.join(', ')})`;
  }

  accepts(path: string): boolean {
    return this.documents.accepted.has(path);
  }

  reads(): boolean {
    return false;
  }

  *index(files: SnapshotFile[], { collector, progress }: IndexContext): Iterable<IndexedFile> {
    const emitter = new ScipEmitter(collector, this.documents);
    for (const file of files) {
      const document = this.documents.accepted.get(file.path)!;
      try {
        yield collector.atomically(() => emitter.emit(document));
      } catch (error) {
        yield analysisFailed(file.path, 'the SCIP import', error);
      }
    }
    progress.log(`  imported ${files.length} files from SCIP: ${emitter.defined.size} symbols defined, ${emitter.externals} external, ${emitter.unlinked} references to symbols of refused documents left unresolved`);
  }
}

class ScipEmitter {
  /** Non-local symbols defined in an accepted document, by symbol. */
  readonly defined = new Map<string, Defined>();
  externals = 0;
  unlinked = 0;
  private readonly externalKeys = new Map<string, Defined>();

  constructor(private readonly collector: IndexCollector, private readonly documents: ScipDocuments) {
    const defs = new Map<string, { lang: Language; path: string; sites: [string, number, number, number, number][] }>();
    const paths = [...documents.accepted.keys()].sort();
    for (const path of paths) {
      const document = documents.accepted.get(path)!;
      for (const o of document.occurrences) {
        if (!(o.roles & DEFINES) || o.symbol.startsWith('local ')) continue;
        const entry = defs.get(o.symbol) ?? defs.set(o.symbol, { lang: document.lang, path, sites: [] }).get(o.symbol)!;
        entry.sites.push([path, o.range.line, o.range.column, o.range.endLine, o.range.endColumn]);
      }
    }
    for (const [symbol, { lang, path, sites }] of defs) {
      const [, line, column, endLine, endColumn] = sites[0]!;
      const text = textOf(documents.accepted.get(path)!.lines, { line, column, endLine, endColumn });
      this.defined.set(symbol, { key: scipKey(symbol, path, true), facts: symbolFacts(symbol, this.informationOf(symbol, path), lang, text) });
    }
    for (const [symbol, { lang, path, sites }] of defs) {
      const { key, facts } = this.defined.get(symbol)!;
      const info = this.informationOf(symbol, path);
      const container = this.defined.get(info?.enclosingSymbol || (facts.parsed && parentSymbol(facts.parsed)) || '');
      sites.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]));
      collector.addSymbol({
        key, name: facts.name, kind: facts.kind, qname: facts.qname, lang, path: sites[0]![0], mods: 0,
        ...(facts.signature !== undefined ? { signature: facts.signature } : {}),
        ...(facts.doc !== undefined ? { doc: facts.doc } : {}),
        ...(container ? { container: container.key } : {}),
        ...(facts.local ? { local: true } : {}),
        defs: sites,
      });
    }
    for (const [symbol, { path }] of defs) this.relationshipEdges(symbol, this.informationOf(symbol, path), documents.accepted.get(path)!.lang);
  }

  private informationOf(symbol: string, path: string): SymbolInformation | undefined {
    return this.documents.accepted.get(path)?.symbols.get(symbol) ?? this.documents.information.get(symbol);
  }

  /**
   * Relationships with is_implementation: between types an `implements` (or `extends`, from an
   * interface or to a class), between members an `overrides`. The others are not edges in
   * Sextant's graph and are left out: is_reference (find_references follows overrides edges to
   * the same related members), is_type_definition, is_definition.
   */
  private relationshipEdges(symbol: string, info: SymbolInformation | undefined, lang: Language): void {
    if (!info) return;
    const from = this.defined.get(symbol)!;
    for (const relationship of info.relationships) {
      if (!relationship.isImplementation || relationship.symbol === symbol) continue;
      const target = this.defined.get(relationship.symbol) ?? this.external(relationship.symbol, lang);
      if (!target) continue;
      const [a, b] = [from.facts.kind, target.facts.kind];
      if (TYPE_KINDS.has(a) && TYPE_KINDS.has(b)) this.collector.addEdge(from.key, a === 'interface' || b === 'class' ? 'extends' : 'implements', target.key);
      else if (!TYPE_KINDS.has(a) && !TYPE_KINDS.has(b)) this.collector.addEdge(from.key, 'overrides', target.key);
    }
  }

  /** Python modules the documents define, by dotted name (`` `rich.console`/__init__: `` is rich.console). */
  private modules?: Map<string, Defined>;

  /**
   * scip-python names the module of a relative import from no package (`from .console import …`
   * in rich/style.py names `` … console/__init__: ``, defined nowhere, where the module is
   * `` … `rich.console`/__init__: ``): the module of that name in the importing file's package, or
   * the nearest package above it that has one.
   */
  private relativeModule(symbol: string, path: string): Defined | undefined {
    const parsed = parseScipSymbol(symbol);
    const module = parsed && pythonModule(parsed);
    if (module === undefined) return undefined;
    if (!this.modules) {
      this.modules = new Map();
      for (const entry of this.defined.values()) if (entry.facts.kind === 'module') this.modules.set(entry.facts.qname, entry);
    }
    const packages = path.split('/').slice(0, -1);
    for (let depth = packages.length; depth > 0; depth--) {
      const found = this.modules.get([...packages.slice(0, depth), module].join('.'));
      if (found) return found;
    }
    return undefined;
  }

  /**
   * An external symbol: referenced, defined in no document (a dependency's, or a relative import's
   * module that relativeModule could not place).
   */
  private external(symbol: string, lang: Language): Defined | undefined {
    const known = this.externalKeys.get(symbol);
    if (known) return known;
    const parsed = parseScipSymbol(symbol);
    if (!parsed || parsed.local) return undefined;
    const facts = symbolFacts(symbol, this.documents.information.get(symbol), lang);
    const key = scipKey(symbol, '', false);
    const { name, version } = parsed.package;
    this.collector.addSymbol({
      key, name: facts.name, kind: facts.kind, qname: facts.qname, lang, mods: 0,
      ...(facts.signature !== undefined ? { signature: facts.signature } : {}),
      ...(facts.doc !== undefined ? { doc: facts.doc } : {}),
      external: { package: name && name !== '.' ? name : parsed.scheme, ...(version && version !== '.' ? { version } : {}) },
      defs: [],
    });
    const external = { key, facts };
    this.externalKeys.set(symbol, external);
    this.externals++;
    return external;
  }

  emit(document: CheckedDocument): CompiledFile {
    const { path, lang, lines } = document;
    const syms: string[] = [];
    const symIndex = new Map<string, number>();
    const occ: number[] = [];
    const unresolved: UnresolvedName[] = [];
    const symbolOf = (key: string) => symIndex.get(key) ?? (symIndex.set(key, syms.length), syms.push(key) - 1);
    const occurrence = (key: string, range: Span, kind: ReferenceKind) => {
      if (range.line === range.endLine && range.column === range.endColumn) return; // nothing to point at
      pushOccurrence(occ, { ...range, symbolIndex: symbolOf(key), kind });
    };
    const site = (range: Span): Site => ({ path, ...range });

    // The document's locals, named by their definition's text.
    const locals = new Map<string, Defined>();
    for (const o of document.occurrences) {
      if (!(o.roles & DEFINES) || !o.symbol.startsWith('local ') || locals.has(o.symbol)) continue;
      const facts = symbolFacts(o.symbol, document.symbols.get(o.symbol), lang, textOf(lines, o.range));
      locals.set(o.symbol, { key: scipKey(o.symbol, path, true), facts });
    }
    const fromOf = enclosingDefinitions(document, (symbol) => (symbol.startsWith('local ') ? locals.get(symbol) : this.defined.get(symbol)));
    for (const [symbol, local] of locals) {
      const info = document.symbols.get(symbol);
      const definition = document.occurrences.findIndex((o) => o.symbol === symbol && o.roles & DEFINES);
      const o = document.occurrences[definition]!;
      const container = (info?.enclosingSymbol && this.defined.get(info.enclosingSymbol)?.key) || fromOf(definition);
      this.collector.addSymbol({
        key: local.key, name: local.facts.name, kind: local.facts.kind, qname: local.facts.qname, lang, path, mods: 0,
        ...(local.facts.signature !== undefined ? { signature: local.facts.signature } : {}),
        ...(container ? { container } : {}),
        local: true,
        defs: [[path, o.range.line, o.range.column, o.range.endLine, o.range.endColumn]],
      });
    }

    document.occurrences.forEach((o, index) => {
      const local = o.symbol.startsWith('local ');
      const target = local ? locals.get(o.symbol) : this.defined.get(o.symbol);
      if (o.roles & DEFINES) {
        if (target) occurrence(target.key, o.range, 'definition');
        return;
      }
      if (!target && !local && this.documents.refusedDefinitions.has(o.symbol)) {
        // Its declaration's document was refused: the file is indexed by another indexer, under other keys.
        const facts = symbolFacts(o.symbol, this.documents.information.get(o.symbol), lang);
        const from = fromOf(index);
        unresolved.push({ name: facts.name, ...o.range, kind: referenceKind(o, lines, facts.kind), ...(from ? { from } : {}) });
        this.unlinked++;
        return;
      }
      const symbol = target ?? (local ? undefined : this.relativeModule(o.symbol, path) ?? this.external(o.symbol, lang));
      if (!symbol || (o.range.line === o.range.endLine && o.range.column === o.range.endColumn)) return;
      // `new Square(2)`: the class is used, and its constructor called when the repository declares one.
      const constructed = symbol.facts.kind === 'constructor' ? this.constructedAt(o.symbol, textOf(lines, o.range), lang) : undefined;
      const used = constructed ?? symbol;
      const kind = referenceKind(o, lines, used.facts.kind);
      const from = fromOf(index);
      this.collector.addReference(used.key, site(o.range), kind, from, 'exact');
      occurrence(used.key, o.range, kind);
      if (constructed && target) this.collector.addReference(target.key, site(o.range), kind, from, 'exact');
      const called = constructed && target ? target : used;
      if (from && (kind === 'call' || kind === 'new') && (CALLABLE_KINDS.has(called.facts.kind) || called.facts.kind === 'class')) {
        const caller = this.collector.symbols.get(from)?.info.kind;
        if (caller && CALLER_KINDS.has(caller)) this.collector.addEdge(from, 'calls', called.key, site(o.range));
      }
    });

    return { path, lang, syms, occ, problems: [], outline: this.outlineOf(document, symbolOf), ...(unresolved.length ? { unresolved } : {}) };
  }

  /**
   * `new Square(2)`: scip-typescript and scip-java name the constructor (`Square#<constructor>().`)
   * at the class's name, where Sextant's own indexers record a reference to the class (kind new,
   * and the call edge to it). The class, when the text is its name; else (`super(…)`) undefined.
   */
  private constructedAt(symbol: string, text: string | undefined, lang: Language): Defined | undefined {
    const parsed = parseScipSymbol(symbol);
    const type = parsed && parentSymbol(parsed);
    if (!type || !parsed || parsed.descriptors[parsed.descriptors.length - 2]!.name !== text) return undefined;
    return this.defined.get(type) ?? this.external(type, lang);
  }

  /** The document's non-local declarations, nested by their ranges (the enclosing range where given, else the name's). */
  private outlineOf(document: CheckedDocument, symbolOf: (key: string) => number): OutlineNode[] {
    const entries: { node: OutlineNode; span: Span }[] = [];
    for (const o of document.occurrences) {
      if (!(o.roles & SymbolRole.Definition)) continue;
      const defined = this.defined.get(o.symbol);
      if (!defined || defined.facts.local || (o.range.line === o.range.endLine && o.range.column === o.range.endColumn)) continue;
      const span = o.enclosing ?? o.range;
      entries.push({
        span,
        node: {
          name: defined.facts.name, kind: defined.facts.kind, sym: symbolOf(defined.key),
          range: [span.line, span.column, span.endLine, span.endColumn], at: [o.range.line, o.range.column], children: [],
        },
      });
    }
    entries.sort((a, b) => compareStart(a.span, b.span) || compareEnd(b.span, a.span));
    const roots: OutlineNode[] = [];
    const open: { node: OutlineNode; span: Span }[] = [];
    for (const entry of entries) {
      while (open.length && !contains(open[open.length - 1]!.span, entry.span)) open.pop();
      (open.length ? open[open.length - 1]!.node.children : roots).push(entry.node);
      open.push(entry);
    }
    return roots;
  }
}

/** A line that imports (`import … from`, `from x import y`, `use a::b`, `using A.B;`): the references on it are imports. */
const IMPORT_LINE = /^\s*(import|from|use|using)\s+[^\s(=]/;
/** A line that re-exports (`export { a } from`, `export * as ns from`, `export type { T }`): the references on it are exports. */
const EXPORT_LINE = /^\s*export\s+(type\s+)?(\{|\*)/;

/**
 * The reference kind of an occurrence: import and write from its roles, or import on a line that
 * imports and export on one that re-exports (scip-typescript sets no Import role), write before an
 * assignment operator (nor a WriteAccess role); else `new` after the keyword `new`, `call` before
 * `(`, `inherit` for a type in an extends or implements clause, `type` for a type-only symbol (an
 * interface, an alias, a type parameter) or a type after `:`; else read. From the text around the
 * range only: a cheap reading, not the compiler's.
 */
function referenceKind(o: CheckedOccurrence, lines: readonly string[], target: SymbolKind): ReferenceKind {
  const line = lines[o.range.line - 1]!;
  if (o.roles & SymbolRole.Import || IMPORT_LINE.test(line)) return 'import';
  if (EXPORT_LINE.test(line)) return 'export';
  const before = line.slice(0, o.range.column - 1).trimEnd();
  const after = lines[o.range.endLine - 1]!.slice(o.range.endColumn - 1).trimStart();
  // An assignment's target (`a.b = …`, `x += …`; not `==`, `=>`): indexers that set no WriteAccess role say so only in the text.
  if (o.roles & SymbolRole.WriteAccess || /^([-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?![=>])/.test(after)) return 'write';
  if (/(^|[^\w$.])new$/.test(before)) return 'new';
  if (after.startsWith('(') || after.startsWith('?.(')) return 'call';
  if (TYPE_KINDS.has(target) && /\b(extends|implements)\b[^{(=]*$/.test(before)) return 'inherit';
  if (target === 'interface' || target === 'type' || target === 'typeParameter') return 'type';
  if (TYPE_KINDS.has(target) && /:$/.test(before)) return 'type';
  return 'read';
}

/**
 * For each occurrence (by index), the key of the innermost definition enclosing it in the same
 * document, by the definitions' enclosing ranges, other than the occurrence's own symbol; undefined
 * at the top level and where the indexer gave no enclosing ranges.
 */
function enclosingDefinitions(document: CheckedDocument, definedOf: (symbol: string) => Defined | undefined): (index: number) => string | undefined {
  const scopes: { span: Span; symbol: string; key: string }[] = [];
  for (const o of document.occurrences) {
    const defined = o.enclosing && o.roles & DEFINES ? definedOf(o.symbol) : undefined;
    if (defined && SCOPE_KINDS.has(defined.facts.kind)) scopes.push({ span: o.enclosing!, symbol: o.symbol, key: defined.key });
  }
  const from: (string | undefined)[] = new Array(document.occurrences.length);
  if (scopes.length === 0) return (index) => from[index];
  scopes.sort((a, b) => compareStart(a.span, b.span) || compareEnd(b.span, a.span));
  const order = document.occurrences.map((_, i) => i).sort((a, b) => compareStart(document.occurrences[a]!.range, document.occurrences[b]!.range));
  const open: typeof scopes = [];
  let next = 0;
  for (const index of order) {
    const o = document.occurrences[index]!;
    while (next < scopes.length && compareStart(scopes[next]!.span, o.range) <= 0) {
      const scope = scopes[next++]!;
      while (open.length && endsBy(open[open.length - 1]!.span, scope.span)) open.pop();
      open.push(scope);
    }
    while (open.length && endsBy(open[open.length - 1]!.span, o.range)) open.pop();
    for (let i = open.length - 1; i >= 0; i--) {
      if (open[i]!.symbol !== o.symbol && contains(open[i]!.span, o.range)) {
        from[index] = open[i]!.key;
        break;
      }
    }
  }
  return (index) => from[index];
}

function compareStart(a: Span, b: Span): number {
  return a.line - b.line || a.column - b.column;
}

function compareEnd(a: Span, b: Span): number {
  return a.endLine - b.endLine || a.endColumn - b.endColumn;
}

/** Whether `scope` ends where `span` starts or before. */
function endsBy(scope: Span, span: Span): boolean {
  return scope.endLine < span.line || (scope.endLine === span.line && scope.endColumn <= span.column);
}

function contains(outer: Span, inner: Span): boolean {
  return compareStart(outer, inner) <= 0 && compareEnd(inner, outer) <= 0;
}
