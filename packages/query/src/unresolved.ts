// What an answer about a symbol could not decide: identifiers named like it, used as it could be
// used, that the indexer resolved to nothing (a receiver of unknown type, a name too common to
// match by name, a library it never saw). Each might be a reference the answer lacks, so an answer
// with any says so (its total is not exact) and names some of them.
import {
  defsOf, MODIFIERS, splitLines, unresolvedCount, unresolvedOf, type GraphNode, type Language, type ReferenceKind, type SymbolKind, type UnresolvedSite,
} from '@sextant/format';
import { nodeOf, walk } from './edges.ts';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { defLocation } from './symbols.ts';

/** One undecided identifier, as an answer names it (the shape the change-review coverage uses). */
export interface UnresolvedIdentifier {
  path: string;
  line: number;
  column: number;
  name: string;
}

export interface UnresolvedReport {
  count: number;
  /** The first few, in REFERENCE_ORDER (production code first). */
  examples: UnresolvedIdentifier[];
}

/** Examples an answer carries; the count says how many there are. */
export const UNRESOLVED_EXAMPLES = 10;

interface NamedSite extends UnresolvedSite {
  name: string;
}

const TYPE_USES: ReadonlySet<ReferenceKind> = new Set(['new', 'type', 'inherit', 'import', 'export', 'read', 'decorator', 'call', 'jsx']);
const CALLABLE_USES: ReadonlySet<ReferenceKind> = new Set(['call', 'read', 'import', 'export', 'jsx']);
const VALUE_USES: ReadonlySet<ReferenceKind> = new Set(['read', 'write', 'call', 'import', 'export']);
const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum', 'type', 'namespace', 'module']);
const CALLABLE_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method', 'constructor']);
/** Resolved by scope alone, never left undecided by name: nothing named like them elsewhere can be them. */
const LEXICAL_KINDS: ReadonlySet<SymbolKind> = new Set(['parameter', 'typeParameter']);

function family(lang: Language): 'jvm' | 'js' {
  return lang === 'java' || lang === 'kotlin' ? 'jvm' : 'js';
}

/** How an identifier may name a symbol of this kind: a method is called or referenced, never written. */
function usesOf(kind: SymbolKind): ReadonlySet<ReferenceKind> {
  return TYPE_KINDS.has(kind) ? TYPE_USES : CALLABLE_KINDS.has(kind) ? CALLABLE_USES : VALUE_USES;
}

/** A symbol as loaded from its shard, or as a walk reached it in the graph. */
export type SymbolOrNode = LoadedSymbol | GraphNode;

/** What the questions below ask of a symbol, from its record or its graph node. */
interface SymbolFacts {
  key: string;
  name: string;
  kind: SymbolKind;
  lang: Language;
  mods: number;
  local: boolean;
  external: boolean;
  /** The file of its first declaration. */
  path?: string;
  /** The files declaring it (a graph node knows its first declaration's). */
  paths: string[];
}

function factsOf(symbol: SymbolOrNode): SymbolFacts {
  if (!('record' in symbol)) {
    return { ...symbol, local: Boolean(symbol.local), external: Boolean(symbol.external), path: symbol.def?.path, paths: symbol.def ? [symbol.def.path] : [] };
  }
  const { record, shard } = symbol;
  const paths: string[] = [];
  for (const def of defsOf(record)) paths.push(shard.paths[def.pathIndex]!);
  return { ...record, local: Boolean(record.local), external: Boolean(record.external), paths };
}

/**
 * The unresolved identifiers that could be uses of any of `symbols` (one shard read per distinct
 * name): same name, a use its kind allows, a file of its language family, and for a private symbol
 * only the files that declare it. `keep` narrows further (a tool's path and kind filters).
 */
export async function unresolvedUsesOf(
  reader: IndexReader, symbols: readonly SymbolOrNode[], keep: (site: NamedSite) => boolean = () => true,
): Promise<NamedSite[]> {
  const out: NamedSite[] = [];
  const seen = new Set<string>();
  const byName = new Map<string, UnresolvedSite[]>();
  for (const record of symbols.map(factsOf)) {
    if (record.local || LEXICAL_KINDS.has(record.kind)) continue;
    const uses = usesOf(record.kind);
    const own = family(record.lang);
    const files = record.mods & MODIFIERS.private ? new Set(record.paths) : undefined;
    // Related members mostly share one name: its shard is read and searched once.
    let sites = byName.get(record.name);
    if (!sites) byName.set(record.name, (sites = await reader.unresolvedNamed(record.name)));
    for (const site of sites) {
      if (!uses.has(site.kind) || family(site.lang) !== own || (files && !files.has(site.path))) continue;
      const at = `${site.path}:${site.line}:${site.column}`;
      if (seen.has(at)) continue;
      const named = { ...site, name: record.name };
      if (!keep(named)) continue;
      seen.add(at);
      out.push(named);
    }
  }
  return out;
}

export function reportOf(sites: readonly UnresolvedIdentifier[]): UnresolvedReport {
  return {
    count: sites.length,
    examples: sites.slice(0, UNRESOLVED_EXAMPLES).map(({ path, line, column, name }) => ({ path, line, column, name })),
  };
}

/** How an answer says it may be incomplete; added to its truncationReason. */
export function unresolvedReason(report: UnresolvedReport): string {
  return `${report.count} identifier${report.count === 1 ? '' : 's'} named like it could not be resolved (unresolved): any may be one more`;
}

const CALL_USES: ReadonlySet<ReferenceKind> = new Set(['call', 'new']);

/**
 * Calls `symbols` make that resolved to nothing: from each one's file change record, inside its
 * declaration (flags are not read: a call hierarchy has no file filters).
 */
export async function unresolvedCallsIn(reader: IndexReader, symbols: readonly SymbolOrNode[]): Promise<NamedSite[]> {
  const out: NamedSite[] = [];
  for (const record of symbols.map(factsOf)) {
    const path = record.path;
    if (record.external || !path) continue;
    const change = await reader.change(path);
    const decl = change?.decls.find((d) => d.key === record.key);
    if (!change || !decl || !unresolvedCount(change)) continue;
    const [fromLine, fromColumn, toLine, toColumn] = decl.range;
    const inside = (line: number, column: number) => (line > fromLine || (line === fromLine && column >= fromColumn)) && (line < toLine || (line === toLine && column <= toColumn));
    let lines: string[] | undefined;
    for (const { line, column, endLine, endColumn, kind } of unresolvedOf(change)) {
      if (!CALL_USES.has(kind) || !inside(line, column)) continue;
      lines ??= splitLines((await reader.text(path)) ?? '');
      out.push({
        path, flags: 0, lang: record.lang, line, column, endLine, endColumn, kind, from: { key: record.key, name: record.name, kind: record.kind },
        name: endLine === line ? (lines[line - 1] ?? '').slice(column - 1, endColumn - 1) : '',
      });
    }
  }
  return out;
}

/** A member named like `start` in a type it is walked to, that no override edge links to it. */
interface UndecidedMember extends UnresolvedIdentifier {
  key: string;
}

/**
 * Members named like `start` in the types above (`supers`) or below (`subs`) its container that the
 * index does not link to it by an override, with as many parameters as it has: the indexer could
 * not match their signatures (a Kotlin `Array<T>` against a Java `T[]`, a type it never saw), so
 * each may override it or be overridden by it. A member with another parameter count is an
 * overload, which is decided.
 */
export async function undecidedMembers(
  reader: IndexReader, start: LoadedSymbol, direction: 'supers' | 'subs', linked: ReadonlySet<string>,
): Promise<UndecidedMember[]> {
  const container = start.record.container;
  if (!container || !CALLABLE_KINDS.has(start.record.kind) && start.record.kind !== 'property') return [];
  const owner = await reader.symbol(container);
  const ownerNode = owner && await nodeOf(reader, owner);
  if (!ownerNode) return [];
  const up = direction === 'supers';
  const types = await walk(reader, [ownerNode], (e) => e.out === up && (e.kind === 'extends' || e.kind === 'implements'), HIERARCHY_BOUND);
  const typeKeys = new Set(types.steps.map((s) => s.node.key));
  if (typeKeys.size === 0) return [];
  const names = await reader.names();
  const keys = names.exactly(names.names, start.record.name).map((i) => names.key(i)).filter((k) => k !== start.record.key && !linked.has(k));
  await reader.prefetch([...new Set(keys.map((k) => reader.symbolShardNameOf(k)))]);
  const arity = parameterCount(start.record.signature);
  const out: UndecidedMember[] = [];
  for (const key of keys) {
    const member = await reader.symbol(key);
    if (!member || !member.record.container || !typeKeys.has(member.record.container) || member.record.kind !== start.record.kind && !(CALLABLE_KINDS.has(member.record.kind) && CALLABLE_KINDS.has(start.record.kind))) continue;
    const other = parameterCount(member.record.signature);
    if (arity !== undefined && other !== undefined && arity !== other) continue;
    const { path, line, column } = defLocation(member.record, 0, member.shard.paths);
    out.push({ key, path: path ?? '', line: line ?? 0, column: column ?? 0, name: member.record.name });
  }
  return out;
}

const HIERARCHY_BOUND = { depth: 64, maxNodes: 5000 };

/** Parameters in a signature's first parameter list, or undefined when it has none to count. */
function parameterCount(signature: string | undefined): number | undefined {
  const open = signature?.indexOf('(') ?? -1;
  if (!signature || open < 0) return undefined;
  let depth = 0;
  let count = 0;
  let any = false;
  for (let i = open + 1; i < signature.length; i++) {
    const c = signature[i]!;
    if (c === '(' || c === '<' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === '>' || c === ']' || c === '}') {
      if (depth === 0) return any ? count + 1 : 0;
      depth--;
    } else if (c === ',' && depth === 0) count++;
    else if (!/\s/.test(c)) any = true;
  }
  return undefined;
}
