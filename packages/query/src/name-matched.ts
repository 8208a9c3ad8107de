// Languages indexed by tags queries alone (the indexer's tags indexer): their references are
// matched to declarations by name (confidence candidate), and no call, inheritance or override is
// resolved. Answers about their symbols say so, rather than presenting a name match as the answer
// or an empty graph as the whole truth.
import type { Language } from '@sextant/format';
import type { IndexReader } from './index-reader.ts';

/** Syntactic languages whose indexer resolves by scope and imports (resolved, not name-matched). */
const SCOPE_RESOLVED: ReadonlySet<Language> = new Set(['java', 'kotlin']);

export function isNameMatched(reader: IndexReader, lang: Language): boolean {
  return reader.manifest.languages[lang]?.precision === 'syntactic' && !SCOPE_RESOLVED.has(lang);
}

/** Why a graph of a name-matched symbol (calls, subtypes, overrides) is empty or partial: a cut reason. */
export function unresolvedGraphReason(lang: Language, edges: string): string {
  return `${lang} is indexed syntactically, matching names only: its ${edges} are not resolved, so this graph may lack any of them (find_references lists the name-matched uses)`;
}
