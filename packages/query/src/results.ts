// Shapes of query answers. Every answer names its repo and commit; every symbol in it carries the
// symbolId the next call takes; every list says whether it is complete.
import type { Confidence, ExternalOrigin, Language, ReferenceKind, SymbolKind } from '@sextant/format';

export interface Location {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface SymbolSummary {
  symbolId: string;
  name: string;
  kind: SymbolKind;
  qualifiedName: string;
  language: Language;
  /** Where the symbol is declared (its name); absent for external symbols. */
  path?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  external?: ExternalOrigin;
}

/** A symbol mentioned by another answer: enough to name it and chain to it. */
export interface PeerSummary {
  symbolId: string;
  name: string;
  kind: SymbolKind;
}

export interface PageInfo {
  total: number;
  totalIsExact: boolean;
  hasMore: boolean;
  nextCursor?: string;
  truncationReason?: string;
}

export interface Answer {
  repo: string;
  commit: string;
}

export interface ReferenceHit extends Location {
  kind: ReferenceKind;
  confidence: Confidence;
  /** The symbol whose body holds the reference; absent at module scope. */
  enclosing?: PeerSummary;
  /** The related member this reference names, when it is not the target itself (find_references includeRelated). */
  via?: PeerSummary;
}
