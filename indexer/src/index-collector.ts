// Accumulates what the language indexers find (symbols, references, edges, files) until the shard
// writer lays it out.
import { encodeChangeRecord, encodeFileRecord, problemsDigest, type ChangeRecord, type Confidence, type EdgeKind, type EncodedRecord, type FileRecord, type ReferenceKind, type SymbolRecord, type UnresolvedSiteData } from '@sextant/format';
import type { UnresolvedName } from './language-indexer.ts';
import { EdgeList, PackedStore, RefList } from './packed-lists.ts';

/** A symbol as stored, but with declarations as tuples naming their path (the writer interns paths per shard). */
export interface SymbolInfo extends Omit<SymbolRecord, 'defs' | 'refs' | 'graph'> {
  /** Declaration name ranges: [path, line, column, endLine, endColumn]. */
  defs: [string, number, number, number, number][];
}

export interface Site {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/**
 * For a call, the declaration the compiler resolved it to, as a def (path, line, column, endLine,
 * endColumn): one of the symbol's own declarations (an overload), or, with `signature`, one of
 * several call signatures of its type (a dual API's `const map: { (f): …; (self, f): … }`).
 */
export interface ResolvedDeclaration {
  def: readonly [string, number, number, number, number];
  signature?: true;
}

export interface CollectedSymbol {
  info: SymbolInfo;
  /** Packed (packed-lists.ts), as edges are: each read makes its objects anew. */
  refs: RefList;
  edges: EdgeList;
}

/**
 * A file as the collector keeps it: its file record encoded as its shard stores it (a whole commit's
 * records as objects, with their outlines and declarations, were a tenth of java.base's build at its
 * peak), and what the file table says of it.
 */
export interface CollectedFile extends EncodedRecord {
  lang: FileRecord['lang'];
  flags: number;
  /** problemsDigest of its problems. */
  problems: string;
}

/** What undoes one addition: a new symbol, a reference, an edge (both ends). */
type Undo = { symbol: string } | { reference: string } | { edge: [string, string] };

export class IndexCollector {
  readonly symbols = new Map<string, CollectedSymbol>();
  /** Every symbol's references and edges, packed. */
  protected readonly store = new PackedStore();
  readonly files: CollectedFile[] = [];
  /** The change record of each file, encoded (parallel to files). */
  readonly changes: EncodedRecord[] = [];
  /** Unresolved identifiers by name (unresolved-shard.ts). */
  readonly unresolved = new Map<string, UnresolvedSiteData[]>();
  references = 0;
  edges = 0;
  unresolvedCount = 0;
  /**
   * When set (an incremental build, once the reused files are in): every key an addition names
   * from then on, so the shard writer knows which symbols' records may differ from the previous index's.
   */
  touched?: Set<string>;
  /**
   * Set by an incremental build: symbols reused from the previous index whose information was read
   * from a file that changed (their declarations moved, their doc or signature may differ). The walk
   * declares each again and its new information replaces the reused one; one left here after the
   * walk was not declared again, and the build cannot vouch for it.
   */
  stale?: Set<string>;
  /** Open while one file is analysed, so that a file whose analysis throws leaves nothing behind. */
  private journal?: Undo[];

  /** Whether the symbol is known (a stale one is not: the walk declares it again). */
  has(key: string): boolean {
    return this.symbols.has(key) && !this.stale?.has(key);
  }

  addSymbol(info: SymbolInfo): void {
    this.touched?.add(info.key);
    const known = this.symbols.get(info.key);
    if (known && this.stale?.delete(info.key)) known.info = info;
    if (known) return;
    this.symbols.set(info.key, { info, refs: new RefList(this.store), edges: new EdgeList(this.store) });
    this.journal?.push({ symbol: info.key });
  }

  addReference(
    key: string, site: Site, kind: ReferenceKind, from: string | undefined, confidence: Confidence,
    decl?: ResolvedDeclaration,
  ): void {
    this.symbols.get(key)!.refs.push({ site, kind, from, confidence, decl });
    this.touched?.add(key);
    this.references++;
    this.journal?.push({ reference: key });
  }

  /** An edge is stored on both ends, so either side answers from its own shard. */
  addEdge(from: string, kind: EdgeKind, to: string, site?: Site): void {
    this.symbols.get(from)!.edges.push({ kind, out: true, peer: to, site });
    this.symbols.get(to)!.edges.push({ kind, out: false, peer: from, site });
    this.touched?.add(from).add(to);
    this.edges++;
    this.journal?.push({ edge: [from, to] });
  }

  /**
   * Runs one file's analysis: if it throws, every symbol, reference and edge it added is taken back
   * (a file skipped as analysis-failed must not leave half its references in the index) and the
   * error is rethrown.
   */
  atomically<T>(analyse: () => T): T {
    if (this.journal) throw new Error('IndexCollector.atomically does not nest');
    const journal: Undo[] = (this.journal = []);
    try {
      return analyse();
    } catch (error) {
      for (let i = journal.length - 1; i >= 0; i--) {
        const undo = journal[i]!;
        if ('symbol' in undo) this.symbols.delete(undo.symbol);
        else if ('reference' in undo) {
          this.symbols.get(undo.reference)!.refs.pop();
          this.references--;
        } else {
          // The packed store takes back its last entries: the edge's incoming end, then its outgoing one.
          this.symbols.get(undo.edge[1])!.edges.pop();
          this.symbols.get(undo.edge[0])!.edges.pop();
          this.edges--;
        }
      }
      throw error;
    } finally {
      this.journal = undefined;
    }
  }

  addFile(file: FileRecord, change: ChangeRecord, unresolved: readonly UnresolvedName[] = []): void {
    this.files.push({ path: file.path, lang: file.lang, flags: file.flags, problems: problemsDigest(file.problems), record: encodeFileRecord(file) });
    this.changes.push({ path: change.path, record: encodeChangeRecord(change) });
    for (const u of unresolved) {
      const site: UnresolvedSiteData = { path: file.path, line: u.line, column: u.column, endLine: u.endLine, endColumn: u.endColumn, kind: u.kind, ...(u.from && this.symbols.has(u.from) ? { from: u.from } : {}) };
      (this.unresolved.get(u.name) ?? this.unresolved.set(u.name, []).get(u.name)!).push(site);
    }
    this.unresolvedCount += unresolved.length;
    this.flagsByPath = undefined;
    this.langsByPath = undefined;
  }

  private flagsByPath?: Map<string, number>;
  private langsByPath?: Map<string, FileRecord['lang']>;

  fileLanguages(): ReadonlyMap<string, FileRecord['lang']> {
    return (this.langsByPath ??= new Map(this.files.map((f) => [f.path, f.lang])));
  }

  fileFlags(): ReadonlyMap<string, number> {
    return (this.flagsByPath ??= new Map(this.files.map((f) => [f.path, f.flags])));
  }
}
