// Accumulates what the language indexers find (symbols, references, edges, files) until the shard
// writer lays it out.
import type { Confidence, EdgeKind, FileRecord, ReferenceKind, SymbolRecord } from '@sextant/format';

/** A symbol as stored, but with declarations as tuples naming their path (the writer interns paths per shard). */
export interface SymbolInfo extends Omit<SymbolRecord, 'defs' | 'refs' | 'edges'> {
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

export interface CollectedSymbol {
  info: SymbolInfo;
  refs: { site: Site; kind: ReferenceKind; from?: string; confidence: Confidence }[];
  edges: { kind: EdgeKind; out: boolean; peer: string; site?: Site }[];
}

export class IndexCollector {
  readonly symbols = new Map<string, CollectedSymbol>();
  readonly files: FileRecord[] = [];
  references = 0;
  edges = 0;

  has(key: string): boolean {
    return this.symbols.has(key);
  }

  addSymbol(info: SymbolInfo): void {
    if (!this.symbols.has(info.key)) this.symbols.set(info.key, { info, refs: [], edges: [] });
  }

  addReference(key: string, site: Site, kind: ReferenceKind, from: string | undefined, confidence: Confidence): void {
    this.symbols.get(key)!.refs.push({ site, kind, from, confidence });
    this.references++;
  }

  /** An edge is stored on both ends, so either side answers from its own shard. */
  addEdge(from: string, kind: EdgeKind, to: string, site?: Site): void {
    this.symbols.get(from)!.edges.push({ kind, out: true, peer: to, site });
    this.symbols.get(to)!.edges.push({ kind, out: false, peer: from, site });
    this.edges++;
  }

  addFile(file: FileRecord): void {
    this.files.push(file);
    this.flagsByPath = undefined;
  }

  private flagsByPath?: Map<string, number>;

  fileFlags(): ReadonlyMap<string, number> {
    return (this.flagsByPath ??= new Map(this.files.map((f) => [f.path, f.flags])));
  }
}
