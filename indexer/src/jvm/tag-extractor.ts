// The one generic extractor behind the Java and Kotlin indexers: runs a language's tags query
// (queries/<language>/tags.scm) over a syntax tree and turns its captures into a FileModel. Which
// syntax declares or refers to what is said by the query; what it means is the resolver's business.
//
// Capture vocabulary. Each match has one primary capture:
//   @definition.<SymbolKind>  a declaration node; with @name (none: anonymous), @type (declared or
//                             return type), @receiver.type (extension receiver), @value (initialiser),
//                             @doc, @modifiers, @jvm.name (the name Java calls it by), and the flags
//                             @varargs and @iterates (a loop variable).
//   @declaration              adds @type, @receiver.type, @value, @doc, @modifiers, @jvm.name to the
//                             definition declared by this node (patterns stay small: one aspect each).
//   @reference.<role>         a reference expression (roles in file-model.ts); with @name (none:
//                             the captured node is the name), and
//                             @receiver, @arguments, @argument (an argument outside the list),
//                             @type (of an object creation: the type with its arguments),
//                             and the flags @superclass (a supertype in the superclass position) and
//                             @case (a switch label: @receiver is the switch's subject).
//   @import                   with @import.path, @import.wildcard, @import.static, @import.alias.
//   @literal.<type>, @this (@receiver: qualifier), @super, @cast (@type), @parens (@value: same type),
//   @element (@value: element of), @lambda (its parameters are those declared in its scope),
//   @arithmetic (@value: an operand, one match each; without it, a node with left, operator and
//   right fields: comparisons and logic are booleans, a shift has its left operand's type)
//                             expressions whose type resolution can follow.
//   @narrow                   a region where the variable @narrow.name has the type @type (a Kotlin
//                             smart cast); @narrow.after: the rest of the enclosing block after it.
// Independent of the primary capture: @scope (a code scope), @members (a node the grammar reads as
// code that is a class body: no code scope, whatever @scope says), @package, @facade (the class
// name Java sees the file's top-level declarations in), @ignore (no references to names inside
// this node), @header (a part of a class's header: names in it do not see the class's members),
// @template (a string's text after a `$`, whose leading name is a read the grammar has no node for),
// @constraint (`where T : Bound`: @type bounds the type parameter @constraint.name of the
// declaration around it).
//
// Precedence: a name node yields one entry. A definition beats a reference; among references (and
// among definitions of one declaration) the pattern that comes last in the file wins.
import { lineStarts, SYMBOL_KINDS, type ProblemRecord, type SymbolKind } from '@sextant/format';
import type { Node, Query, QueryCapture, QueryOptions, Tree } from 'web-tree-sitter';
import { positionOf, problemsOf, wellFormed } from '../syntax/syntax-errors.ts';
import { CALLABLE_KINDS, ROLES, TYPE_KINDS, type DefEntry, type ExprEntry, type FileModel, type ImportEntry, type JvmLanguage, type NameRange, type NarrowEntry, type RefEntry, type Role, type ScopeEntry } from './file-model.ts';
import { IntervalNesting, type Interval } from './interval-nesting.ts';

/** What a language adds to the generic extraction. */
export interface ExtractionRules {
  lang: JvmLanguage;
  /** The body of a declaration node (its signature ends where the body starts). */
  bodyOf(declaration: Node): Node | null;
  /** Expression nodes that stand for the expression inside them (Kotlin's value_argument). */
  unwrapArgument?(argument: Node): Node;
}

/** Kinds that can enclose code, so a reference inside them names them as its caller. */
const HOLDER_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum', 'enumMember', 'method', 'constructor', 'function', 'field', 'property']);
const KIND_SET: ReadonlySet<string> = new Set(SYMBOL_KINDS);
const ROLE_SET: ReadonlySet<string> = new Set(ROLES);
const AUX_CAPTURES = new Set([
  'name', 'type', 'receiver.type', 'value', 'doc', 'modifiers', 'jvm.name', 'varargs', 'iterates', 'receiver', 'arguments', 'argument',
  'import.path', 'import.wildcard', 'import.static', 'import.alias', 'scope', 'package', 'ignore', 'header', 'declaration', 'import',
  'this', 'super', 'cast', 'parens', 'element', 'lambda', 'arithmetic', 'superclass', 'members', 'case', 'facade', 'narrow', 'narrow.name', 'narrow.after', 'template', 'constraint', 'constraint.name', 'lambda.returned',
]);
const COMPARISONS = new Set(['<', '>', '<=', '>=', '==', '!=', '&&', '||']);
const SHIFTS = new Set(['<<', '>>', '>>>']);
const MAX_DOC = 1000;
const MAX_SIGNATURE = 300;

/** Rejects capture names outside the vocabulary, so a typo in a .scm file fails loudly at load. */
export function checkCaptureNames(query: Query, label: string): void {
  for (const name of query.captureNames) {
    if (name.startsWith('_') || AUX_CAPTURES.has(name) || name.startsWith('literal.')) continue;
    if (name.startsWith('definition.') && KIND_SET.has(name.slice('definition.'.length))) continue;
    if (name.startsWith('reference.') && ROLE_SET.has(name.slice('reference.'.length))) continue;
    throw new Error(`Tags query for ${label} uses @${name}; see the capture vocabulary in indexer/src/jvm/tag-extractor.ts.`);
  }
}

interface RawDef {
  node: Node;
  name?: Node;
  kind: SymbolKind;
  pattern: number;
  flags: Set<string>;
}

/** What a reference reads of its name node: a syntax node, or a name the grammar left inside a string's text. */
type NameNode = Pick<Node, 'id' | 'startIndex' | 'endIndex' | 'startPosition' | 'text'>;

interface RawRef {
  node: NameNode;
  name: NameNode;
  role: Role;
  pattern: number;
  receiver?: Node;
  arguments?: Node;
  argument?: Node;
  type?: Node;
  superclass: boolean;
  caseLabel: boolean;
}

interface Aux {
  type?: Node;
  receiverType?: Node;
  value?: Node;
  doc?: Node;
  modifiers?: Node;
  jvmName?: Node;
}

type RawExpr =
  | { form: 'ref'; ref: RawRef }
  | { form: 'literal'; type: string }
  | { form: 'this'; node: Node; qualifier?: Node }
  | { form: 'super'; node: Node }
  | { form: 'cast'; node: Node; type: Node }
  | { form: 'parens'; value: Node }
  | { form: 'element'; value: Node }
  | { form: 'lambda'; node: Node; value?: Node; returned?: boolean; cast?: Node }
  | { form: 'arithmetic'; operands: Node[] };

/** What the tags query's matches captured, before any of it is placed: raw entries keyed by node. */
interface Captured {
  /** The file's text: every name and type is read from it, not from the tree (a repaired parse's text differs). */
  source: string;
  defs: Map<string, RawDef>;
  aux: Map<number, Aux>;
  refs: Map<number, RawRef>;
  exprs: Map<number, RawExpr>;
  codeScopes: Interval[];
  memberBodies: Set<string>;
  ignored: Interval[];
  ignoredNodes: Set<number>;
  headers: Interval[];
  imports: Map<number, { node: Node; pattern: number; entry: ImportEntry }>;
  pkg: string;
  facade?: string;
  narrows: NarrowEntry[];
  /** `where T : Bound` (Kotlin): a bound of the type parameter named, declared by the declaration around it. */
  constraints: { start: number; name: string; type: string }[];
}

/** The scopes of a file and how they nest. */
interface Scopes {
  entries: ScopeEntry[];
  /** `start:end` → the scope of exactly that extent. */
  byExtent: Map<string, number>;
  nesting: IntervalNesting;
}

/**
 * `timeLimitMs`: the tags query is linear in practice but not on every tree (100,000 nested
 * parentheses in Java run for minutes), so past it the extraction throws rather than return a
 * model built from part of the file's matches. `rowsMoved`: the tree was parsed from a repair of
 * `text` that moved line breaks (kotlin-grammar-repairs.ts), so its rows are not the file's; its
 * offsets are.
 */
export function extractFile(tree: Tree, text: string, path: string, query: Query, rules: ExtractionRules, timeLimitMs = Infinity, rowsMoved = false): FileModel {
  const root = tree.rootNode;
  const captured = captureMatches(root, query, text, timeLimitMs);
  const positions = new Positions(text, rowsMoved);
  const { rawDefs, defEntries, defNames } = definitionsOf(captured, positions);
  const scopes = scopesOf(defEntries, captured);
  const ownerAt = placeDefinitions(defEntries, scopes);
  constrain(defEntries, captured.constraints);

  // Signatures of what can be searched (locals are reached by position only).
  rawDefs.forEach((raw, i) => {
    const def = defEntries[i]!;
    if (def.name && (!def.local || TYPE_KINDS.has(def.kind) || CALLABLE_KINDS.has(def.kind))) def.signature = signatureOf(raw.node, captured.aux.get(raw.node.id), text, rules);
    if ((def.kind === 'method' || def.kind === 'function') && !rules.bodyOf(raw.node)) def.bodyless = true;
  });

  // References, in document order; definitions' names and ignored names are not references.
  const ignoredRanges = mergeIntervals(captured.ignored);
  const headerRanges = mergeIntervals(captured.headers);
  const rawRefs = [...captured.refs.values()]
    .filter((ref) => !defNames.has(ref.name.id) && !captured.ignoredNodes.has(ref.name.id) && intervalAt(ignoredRanges, ref.name.startIndex) < 0)
    .sort((a, b) => a.name.startIndex - b.name.startIndex);
  const importList = [...captured.imports.values()].sort((a, b) => a.node.startIndex - b.node.startIndex);
  const importRanges = importList.map(({ node }) => ({ start: node.startIndex, end: node.endIndex }));

  const { exprEntries, exprOf } = expressionsOf(rawRefs, rawDefs, defEntries, captured.exprs, scopes, text);
  rawDefs.forEach((raw, i) => {
    const value = captured.aux.get(raw.node.id)?.value;
    if (value) defEntries[i]!.value = exprOf(value);
  });

  const refEntries: RefEntry[] = rawRefs.map((raw) => {
    const start = raw.name.startIndex;
    // The end once: Node.endIndex (and Node.text, which reads it) is a call into the wasm runtime.
    const end = raw.name.endIndex;
    const entry: RefEntry = {
      role: raw.role,
      name: text.slice(start, end),
      ...positions.name(raw.name, end),
      start,
      scope: scopes.nesting.innermost(start),
      owner: ownerAt(start),
      receiver: exprOf(raw.receiver),
      importIndex: intervalAt(importRanges, start),
    };
    if (raw.role === 'inherit') entry.text = squash(textOf(text, raw.node));
    else if ((raw.role === 'new' || raw.role === 'call') && raw.type) entry.text = squash(textOf(text, raw.type));
    if (raw.superclass) entry.superclass = true;
    if (raw.caseLabel) entry.caseLabel = true;
    if (intervalAt(headerRanges, start) >= 0) entry.header = true;
    if (raw.arguments || raw.argument) entry.args = argumentsOf(raw, exprOf, rules);
    return entry;
  });

  const { narrows, pkg, facade } = captured;
  const problems: ProblemRecord[] = root.hasError ? problemsOf(root, text, lineStarts(text)) : [];
  return {
    ...(narrows.length ? { narrowings: narrows.sort((a, b) => a.start - b.start).map((n) => ({ ...n, scope: scopes.nesting.innermost(n.start) })) } : {}),
    path, lang: rules.lang, pkg, ...(facade ? { facade } : {}),
    imports: importList.map((i) => i.entry),
    defs: defEntries, refs: refEntries, exprs: exprEntries, scopes: scopes.entries, problems,
  };
}

/** Runs the query and sorts each match's captures into what they say: independent captures as they come, the primary one by its kind. */
function captureMatches(root: Node, query: Query, source: string, timeLimitMs: number): Captured {
  const captured: Captured = {
    source, defs: new Map(), aux: new Map(), refs: new Map(), exprs: new Map(), codeScopes: [], memberBodies: new Set(),
    ignored: [], ignoredNodes: new Set(), headers: [], imports: new Map(), pkg: '', narrows: [], constraints: [],
  };
  const captures = new Map<string, Node>();
  const deadline = performance.now() + timeLimitMs;
  let late = false;
  // Returning true from the progress callback cancels the query (web-tree-sitter's typings say void).
  const matches = query.matches(root, { progressCallback: () => (late ||= performance.now() > deadline) } as QueryOptions);
  if (late) throw new Error(`the tags query gave up after ${timeLimitMs} ms`);
  for (const match of matches) {
    captures.clear();
    let primary: QueryCapture | undefined;
    let primaryRank = 0;
    let constraint: Node | undefined;
    for (const capture of match.captures) {
      const name = capture.name;
      const role = roleOf(name);
      if (role === SCOPE) captured.codeScopes.push({ start: capture.node.startIndex, end: capture.node.endIndex });
      else if (role === MEMBERS) captured.memberBodies.add(`${capture.node.startIndex}:${capture.node.endIndex}`);
      else if (role === IGNORE) {
        captured.ignoredNodes.add(capture.node.id);
        captured.ignored.push({ start: capture.node.startIndex, end: capture.node.endIndex });
      } else if (role === HEADER) captured.headers.push({ start: capture.node.startIndex, end: capture.node.endIndex });
      else if (role === PACKAGE) captured.pkg = textOf(source, capture.node).replace(/\s+/g, '');
      else if (role === FACADE) captured.facade = textOf(source, capture.node);
      else if (role === TEMPLATE) templateName(captured, capture.node, match.patternIndex);
      else if (role === CONSTRAINT) constraint = capture.node;
      else if (role > primaryRank) {
        primary = capture;
        primaryRank = role;
      }
      captures.set(name, capture.node);
    }
    if (primary) capturePrimary(captured, primary, captures, match.patternIndex);
    if (constraint) {
      const [constrained, bound] = [captures.get('constraint.name'), captures.get('type')];
      if (constrained && bound) captured.constraints.push({ start: constraint.startIndex, name: textOf(source, constrained), type: squash(textOf(source, bound)) });
    }
  }
  return captured;
}

/** A node's text, from the file's own text (Node.text would read the parsed one, and call into wasm). */
function textOf(source: string, node: NameNode): string {
  return source.slice(node.startIndex, node.endIndex);
}

/** An identifier at the start of a string's text. */
const LEADING_NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * The read of a template's simple name (`"order $id"`), which the grammar leaves in the string's
 * text: `@template` is the text after a `$`, the name its leading identifier. Negative ids: no
 * syntax node has them.
 */
function templateName(captured: Captured, content: Node, pattern: number): void {
  const text = LEADING_NAME.exec(textOf(captured.source, content))?.[0];
  if (!text) return;
  const { startIndex, startPosition } = content;
  const name: NameNode = { id: -1 - startIndex, startIndex, endIndex: startIndex + text.length, startPosition, text };
  captured.refs.set(name.id, { node: name, name, role: 'read', pattern, superclass: false, caseLabel: false });
}

/** A match's primary capture: a definition, declaration, reference or import (the last pattern wins), else an expression form. */
function capturePrimary(captured: Captured, primary: QueryCapture, captures: Map<string, Node>, patternIndex: number): void {
  const { defs, aux, refs, imports } = captured;
  const node = primary.node;
  const name = primary.name;
  if (name.startsWith('definition.')) {
    const nameNode = captures.get('name');
    const key = `${node.id}:${nameNode?.id ?? ''}`;
    const previous = defs.get(key);
    const flags = new Set<string>(previous?.flags);
    if (captures.has('varargs')) flags.add('varargs');
    if (captures.has('iterates')) flags.add('iterates');
    if (!previous || previous.pattern <= patternIndex) {
      defs.set(key, { node, name: nameNode, kind: name.slice('definition.'.length) as SymbolKind, pattern: patternIndex, flags });
    } else {
      previous.flags = flags;
    }
    mergeAux(aux, node.id, captures);
  } else if (name === 'declaration') {
    mergeAux(aux, node.id, captures);
  } else if (name.startsWith('reference.')) {
    // Without @name, the reference names the node it captures (`(identifier) @reference.read`):
    // one node to marshal out of the runtime instead of two, for the commonest match there is.
    const nameNode = captures.get('name') ?? node;
    const previous = refs.get(nameNode.id);
    if (previous && previous.pattern > patternIndex) return;
    const ref: RawRef = {
      node, name: nameNode, role: name.slice('reference.'.length) as Role, pattern: patternIndex,
      receiver: captures.get('receiver'), arguments: captures.get('arguments'), argument: captures.get('argument'), type: captures.get('type'),
      superclass: captures.has('superclass'), caseLabel: captures.has('case'),
    };
    refs.set(nameNode.id, ref);
  } else if (name === 'import') {
    const path = captures.get('import.path');
    if (!path) return;
    const previous = imports.get(node.id);
    if (previous && previous.pattern > patternIndex) return;
    imports.set(node.id, {
      node, pattern: patternIndex,
      entry: {
        path: textOf(captured.source, path).replace(/\s+/g, ''),
        wildcard: captures.has('import.wildcard'),
        static: captures.has('import.static'),
        ...(captures.has('import.alias') ? { alias: textOf(captured.source, captures.get('import.alias')!) } : {}),
      },
    });
  } else {
    captureExpression(captured, name, node, captures);
  }
}

/** The expression forms type resolution can follow (literals, this, casts, arithmetic, …) and Kotlin's smart casts. */
function captureExpression(captured: Captured, name: string, node: Node, captures: Map<string, Node>): void {
  const { exprs, narrows } = captured;
  if (name.startsWith('literal.')) {
    exprs.set(node.id, { form: 'literal', type: name.slice('literal.'.length) });
  } else if (name === 'this') {
    exprs.set(node.id, { form: 'this', node, qualifier: captures.get('receiver') });
  } else if (name === 'super') {
    exprs.set(node.id, { form: 'super', node });
  } else if (name === 'cast') {
    const type = captures.get('type');
    if (type) exprs.set(node.id, { form: 'cast', node, type });
  } else if (name === 'arithmetic' && !captures.has('value') && node.childForFieldName('left')) {
    const operator = node.childForFieldName('operator')?.type ?? '';
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (COMPARISONS.has(operator)) exprs.set(node.id, { form: 'literal', type: 'boolean' });
    else if (left && right) exprs.set(node.id, { form: 'arithmetic', operands: SHIFTS.has(operator) ? [left] : [left, right] });
  } else if (name === 'arithmetic') {
    const operand = captures.get('value');
    const previous = exprs.get(node.id);
    if (operand && previous?.form === 'arithmetic') previous.operands.push(operand);
    else if (operand) exprs.set(node.id, { form: 'arithmetic', operands: [operand] });
  } else if (name === 'narrow' || name === 'narrow.after') {
    const variable = captures.get('narrow.name');
    const type = captures.get('type');
    const end = name === 'narrow' ? node.endIndex : node.parent?.endIndex;
    if (variable && type && end !== undefined) narrows.push({ name: textOf(captured.source, variable), type: squash(textOf(captured.source, type)), start: name === 'narrow' ? node.startIndex : node.endIndex, end, scope: -1 });
  } else if (name === 'lambda') {
    // Several patterns capture a lambda: with its last statement (@value), as a function's return
    // value (@lambda.returned), cast (@type). What each says is kept.
    const known = exprs.get(node.id);
    const was = known?.form === 'lambda' ? known : undefined;
    exprs.set(node.id, {
      form: 'lambda', node, value: captures.get('value') ?? was?.value,
      returned: captures.has('lambda.returned') || was?.returned, cast: captures.get('type') ?? was?.cast,
    });
  } else if (name === 'parens' || name === 'element') {
    const value = captures.get('value');
    if (value) exprs.set(node.id, { form: name, value });
  }
}

/**
 * Definitions, in document order; a declaration captured both with and without a name (a
 * companion object) is the named one. `defNames`: the name nodes of definitions, which are no references.
 */
function definitionsOf(captured: Captured, positions: Positions): { rawDefs: RawDef[]; defEntries: DefEntry[]; defNames: Set<number> } {
  const named = new Set<number>();
  for (const raw of captured.defs.values()) if (raw.name) named.add(raw.node.id);
  const rawDefs = [...captured.defs.values()].filter((raw) => raw.name || !named.has(raw.node.id)).sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex
    || (a.name?.startIndex ?? 0) - (b.name?.startIndex ?? 0));
  const defNames = new Set<number>();
  const defEntries: DefEntry[] = rawDefs.map((raw) => {
    if (raw.name) defNames.add(raw.name.id);
    const nameNode = raw.name ?? raw.node;
    const start = raw.node.startIndex;
    const end = raw.node.endIndex;
    const at = raw.name ? positions.name(raw.name) : positions.point(raw.node);
    const a = captured.aux.get(raw.node.id);
    const [rangeLine, rangeColumn] = positions.at(start, raw.node.startPosition);
    const [rangeEndLine, rangeEndColumn] = positions.at(end, raw.node.endPosition);
    const entry: DefEntry = {
      kind: raw.kind,
      name: raw.name ? wellFormed(textOf(captured.source, nameNode)) : '',
      nodeType: raw.node.type,
      start, end,
      rangeLine, rangeColumn, rangeEndLine, rangeEndColumn,
      ...at,
      parent: -1, scope: -1, ownScope: -1, local: false,
    };
    if (a?.type) entry.type = squash(textOf(captured.source, a.type));
    if (a?.receiverType) entry.receiverType = squash(textOf(captured.source, a.receiverType));
    if (a?.doc) {
      const doc = docOf(textOf(captured.source, a.doc));
      if (doc) entry.doc = doc;
    }
    if (a?.modifiers) entry.modifiers = textOf(captured.source, a.modifiers);
    if (a?.jvmName) entry.jvmName = textOf(captured.source, a.jvmName);
    if (raw.flags.has('varargs')) entry.varargs = true;
    if (raw.flags.has('iterates')) entry.iterates = true;
    return entry;
  });
  return { rawDefs, defEntries, defNames };
}

/** Adds each `where` bound to the type parameter it names, of the innermost declaration around it that declares one so named. */
function constrain(defEntries: DefEntry[], constraints: Captured['constraints']): void {
  for (const { start, name, type } of constraints) {
    let target: DefEntry | undefined;
    for (const def of defEntries) {
      const owner = def.kind === 'typeParameter' && def.name === name && def.parent >= 0 ? defEntries[def.parent]! : undefined;
      if (owner && owner.start <= start && start < owner.end && (!target || defEntries[target.parent]!.start <= owner.start)) target = def;
    }
    if (!target) continue;
    if (target.type === undefined) target.type = type;
    else (target.bounds ??= []).push(type);
  }
}

/**
 * Scopes: code scopes from the query plus one per class- or function-like definition and per
 * extension property (its getter's `this` is the receiver).
 */
function scopesOf(defEntries: DefEntry[], captured: Captured): Scopes {
  const scopeEntries: ScopeEntry[] = [];
  const scopeByExtent = new Map<string, number>();
  defEntries.forEach((def, index) => {
    if (!TYPE_KINDS.has(def.kind) && !CALLABLE_KINDS.has(def.kind) && !(def.kind === 'property' && def.receiverType)) return;
    def.ownScope = scopeEntries.length;
    scopeByExtent.set(`${def.start}:${def.end}`, scopeEntries.length);
    scopeEntries.push({ start: def.start, end: def.end, parent: -1, def: index, code: CALLABLE_KINDS.has(def.kind) });
  });
  for (const scope of captured.codeScopes) {
    if (captured.memberBodies.has(`${scope.start}:${scope.end}`)) continue;
    const same = scopeByExtent.get(`${scope.start}:${scope.end}`);
    if (same !== undefined) {
      scopeEntries[same]!.code = true;
      continue;
    }
    scopeByExtent.set(`${scope.start}:${scope.end}`, scopeEntries.length);
    scopeEntries.push({ start: scope.start, end: scope.end, parent: -1, def: -1, code: true });
  }
  const scopeNesting = new IntervalNesting(scopeEntries);
  scopeEntries.forEach((scope, i) => (scope.parent = scopeNesting.parents[i]!));
  return { entries: scopeEntries, byExtent: scopeByExtent, nesting: scopeNesting };
}

/** Containers, declaring scopes and locality of the definitions; the definition that holds an offset's code (-1: none). */
function placeDefinitions(defEntries: DefEntry[], scopes: Scopes): (offset: number) => number {
  const { entries: scopeEntries, nesting: scopeNesting } = scopes;
  const defNesting = new IntervalNesting(defEntries);
  const holderIndex: number[] = [];
  defEntries.forEach((def, i) => {
    def.scope = scopeNesting.enclosing(def);
    // A property declared in a constructor (Kotlin's `internal constructor(val x: Int)`) is its
    // class's, in the class's member scope, as when the primary constructor has no keyword.
    const inConstructor = def.kind === 'property' && def.scope >= 0 && defEntries[scopeEntries[def.scope]!.def]?.kind === 'constructor';
    if (inConstructor) def.scope = scopeEntries[def.scope]!.parent;
    const declaredIn = def.scope >= 0 ? scopeEntries[def.scope]! : undefined;
    def.local = declaredIn?.code ?? false;
    if (def.local && (def.kind === 'property' || def.kind === 'field')) def.kind = 'local';
    if (def.kind === 'parameter' || def.kind === 'typeParameter' || def.kind === 'local') def.local = true;
    let parent = defNesting.parents[i]!;
    if (inConstructor) parent = defNesting.parents[parent]!;
    while (parent >= 0 && !HOLDER_KINDS.has(defEntries[parent]!.kind)) parent = defNesting.parents[parent]!;
    def.parent = parent;
    if (HOLDER_KINDS.has(def.kind) && !(def.local && (def.kind === 'field' || def.kind === 'property'))) holderIndex.push(i);
  });
  // Members of local and anonymous classes are as unreachable by name as the class itself.
  for (const def of defEntries) if (def.parent >= 0 && defEntries[def.parent]!.local) def.local = true;
  // Kotlin functions directly in a class are its methods.
  for (const def of defEntries) {
    if (def.kind === 'function' && def.parent >= 0 && TYPE_KINDS.has(defEntries[def.parent]!.kind) && !scopeEntries[def.scope]?.code) def.kind = 'method';
  }
  const holders = new IntervalNesting(holderIndex.map((i) => defEntries[i]!));
  return (offset: number) => {
    const h = holders.innermost(offset);
    return h >= 0 ? holderIndex[h]! : -1;
  };
}

/** Expressions: every reference node is one, then every unnamed definition, then the captured expression forms. */
function expressionsOf(rawRefs: RawRef[], rawDefs: RawDef[], defEntries: DefEntry[], exprs: Map<number, RawExpr>, scopes: Scopes, source: string): { exprEntries: ExprEntry[]; exprOf: (node: Node | undefined) => number } {
  const exprIndex = new Map<number, number>();
  const exprEntries: ExprEntry[] = [];
  rawRefs.forEach((ref, i) => {
    exprIndex.set(ref.node.id, exprEntries.length);
    exprEntries.push({ form: 'ref', ref: i });
  });
  rawDefs.forEach((raw, i) => {
    if (defEntries[i]!.name || exprIndex.has(raw.node.id)) return;
    exprIndex.set(raw.node.id, exprEntries.length);
    exprEntries.push({ form: 'def', def: i });
  });
  const pending: [RawExpr, number][] = [];
  for (const [nodeId, raw] of exprs) {
    if (exprIndex.has(nodeId) || raw.form === 'ref') continue;
    exprIndex.set(nodeId, exprEntries.length);
    pending.push([raw, exprEntries.length]);
    exprEntries.push({ form: 'literal', type: '' }); // placeholder, filled once every index is known
  }
  const exprOf = (node: Node | undefined): number => (node ? exprIndex.get(node.id) ?? -1 : -1);
  const scopeNesting = scopes.nesting;
  for (const [raw, index] of pending) {
    switch (raw.form) {
      case 'literal':
        exprEntries[index] = { form: 'literal', type: raw.type };
        break;
      case 'this':
        exprEntries[index] = { form: 'this', qualifier: exprOf(raw.qualifier), scope: scopeNesting.innermost(raw.node.startIndex) };
        break;
      case 'super':
        exprEntries[index] = { form: 'super', scope: scopeNesting.innermost(raw.node.startIndex) };
        break;
      case 'cast':
        exprEntries[index] = { form: 'cast', type: squash(textOf(source, raw.type)), scope: scopeNesting.innermost(raw.node.startIndex) };
        break;
      case 'parens':
      case 'element':
        exprEntries[index] = { form: raw.form, value: exprOf(raw.value) };
        break;
      case 'arithmetic':
        exprEntries[index] = { form: 'arithmetic', operands: raw.operands.map(exprOf) };
        break;
      case 'lambda':
        exprEntries[index] = {
          form: 'lambda', scope: scopes.byExtent.get(`${raw.node.startIndex}:${raw.node.endIndex}`) ?? -1, value: exprOf(raw.value),
          ...(raw.returned ? { returned: true as const } : {}), ...(raw.cast ? { cast: squash(textOf(source, raw.cast)) } : {}),
        };
        break;
      default:
        break;
    }
  }
  return { exprEntries, exprOf };
}

/** A reference's arguments as expressions: those of its @arguments list, then the @argument outside it. */
function argumentsOf(raw: RawRef, exprOf: (node: Node | undefined) => number, rules: ExtractionRules): number[] {
  const args: number[] = [];
  if (raw.arguments) {
    for (const child of raw.arguments.namedChildren) {
      if (!child || child.isExtra) continue;
      args.push(exprOf(rules.unwrapArgument ? rules.unwrapArgument(child) : child));
    }
  }
  if (raw.argument) args.push(exprOf(raw.argument));
  return args;
}

// What a capture name is to a match: independent (scope, ignore, package), auxiliary (0), or a
// candidate primary capture ranked so that definitions outrank references, which outrank
// aux-only and expression captures.
const AUX = 0;
const EXPRESSION = 1;
const DECLARATION = 2;
const REFERENCE = 3;
const DEFINITION = 4;
const SCOPE = -1;
const IGNORE = -2;
const PACKAGE = -3;
const MEMBERS = -4;
const HEADER = -5;
const FACADE = -6;
const TEMPLATE = -7;
const CONSTRAINT = -8;
const EXPRESSION_CAPTURES = new Set(['this', 'super', 'cast', 'parens', 'element', 'lambda', 'arithmetic', 'narrow', 'narrow.after']);
const roles = new Map<string, number>();

function roleOf(capture: string): number {
  let role = roles.get(capture);
  if (role === undefined) {
    role = capture === 'scope' ? SCOPE : capture === 'ignore' ? IGNORE : capture === 'template' ? TEMPLATE : capture === 'constraint' ? CONSTRAINT : capture === 'package' ? PACKAGE : capture === 'members' ? MEMBERS : capture === 'header' ? HEADER
      : capture === 'facade' ? FACADE
      : capture.startsWith('definition.') ? DEFINITION : capture.startsWith('reference.') ? REFERENCE
      : capture === 'declaration' || capture === 'import' ? DECLARATION
      : capture.startsWith('literal.') || EXPRESSION_CAPTURES.has(capture) ? EXPRESSION : AUX;
    roles.set(capture, role);
  }
  return role;
}

function mergeAux(aux: Map<number, Aux>, id: number, captures: Map<string, Node>): void {
  let entry = aux.get(id);
  if (!entry) aux.set(id, (entry = {}));
  const type = captures.get('type');
  if (type) entry.type = type;
  const receiverType = captures.get('receiver.type');
  if (receiverType) entry.receiverType = receiverType;
  const value = captures.get('value');
  if (value) entry.value = value;
  const doc = captures.get('doc');
  if (doc) entry.doc = doc;
  const modifiers = captures.get('modifiers');
  if (modifiers) entry.modifiers = modifiers;
  const jvmName = captures.get('jvm.name');
  if (jvmName) entry.jvmName = jvmName;
}

/**
 * Line and column of offsets. tree-sitter's rows count LF only; the build counts CR, CRLF, LF,
 * U+2028 and U+2029 (as the TypeScript compiler does), so files with the rarer breaks go through
 * offsets. Columns are UTF-16 code units in both (web-tree-sitter counts offsets in UTF-16 code units for a JavaScript string).
 */
class Positions {
  private readonly lines?: number[];

  constructor(text: string, rowsMoved: boolean) {
    if (rowsMoved || /\r(?!\n)|[\u2028\u2029]/.test(text)) this.lines = lineStarts(text);
  }

  at(offset: number, point: { row: number; column: number }): [number, number] {
    return this.lines ? positionOf(this.lines, offset) : [point.row + 1, point.column + 1];
  }

  point(node: NameNode): NameRange {
    const [line, column] = this.at(node.startIndex, node.startPosition);
    return { line, column, endLine: line, endColumn: column };
  }

  /** A name's range; names are single tokens on one line, so the end is the start plus the length. */
  name(node: NameNode, end = node.endIndex): NameRange {
    const [line, column] = this.at(node.startIndex, node.startPosition);
    return { line, column, endLine: line, endColumn: column + end - node.startIndex };
  }
}

function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/** Index of the interval (sorted, disjoint) containing the offset, -1 when none does. */
function intervalAt(sorted: Interval[], offset: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const interval = sorted[mid]!;
    if (offset < interval.start) high = mid - 1;
    else if (offset >= interval.end) low = mid + 1;
    else return mid;
  }
  return -1;
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** First paragraph of a `/** … *\/` comment, without its block tags. */
function docOf(comment: string): string | undefined {
  if (!comment.startsWith('/**') || comment.length < 5) return undefined;
  const lines = comment.slice(3, -2).split(/\r\n|[\r\n]/).map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd());
  const paragraph: string[] = [];
  for (const line of lines) {
    if (/^\s*@\w/.test(line)) break;
    if (line.trim() === '') {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  const text = wellFormed(paragraph.join(' '));
  if (!text) return undefined;
  return text.length > MAX_DOC ? `${text.slice(0, MAX_DOC - 3)}...` : text;
}

/** Declaration text up to its body or initialiser, on one line, without leading annotations. */
function signatureOf(node: Node, aux: Aux | undefined, text: string, rules: ExtractionRules): string | undefined {
  const body = rules.bodyOf(node);
  let end = body ? body.startIndex : node.endIndex;
  if (aux?.value && aux.value.startIndex > node.startIndex && aux.value.startIndex < end) end = aux.value.startIndex;
  // A doc comment captured inside the declaration (Kotlin) is not part of the signature.
  let signature = text.slice(node.startIndex, end).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
  signature = squash(signature);
  for (;;) {
    const annotation = /^@[\w.]+(\s*\((?:[^()]|\([^()]*\))*\))?\s*/.exec(signature);
    if (!annotation) break;
    signature = signature.slice(annotation[0].length);
  }
  signature = signature.replace(/[\s=;{]+$/, '').trim();
  if (!signature) return undefined;
  signature = wellFormed(signature);
  return signature.length > MAX_SIGNATURE ? `${signature.slice(0, MAX_SIGNATURE - 3)}...` : signature;
}
