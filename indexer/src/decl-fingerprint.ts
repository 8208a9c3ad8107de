// A file's declarations (FileRecord.decls), for every language in one place, with the fingerprints
// diff_symbols compares: the same body hash at two commits means the same code (a rename or a move
// when the name or file differs); a different body hash is a change of the `body` aspect.
//
// One DeclRecord per symbol that is not a local nor external and has a definition in the file, in
// declaration order (its first definition here). `range` is the outline node's whose name is at the
// definition's name, else the name's range. The body fingerprint, exactly:
//   1. the source text of the range (of each definition in this file, concatenated, for a symbol
//      declared several times), without the text of nested outline nodes that are declarations of
//      their own (a class's methods and properties; locals stay), each cut taking the comments
//      right before it (its doc) and the `;` or `,` right after it along, so changing, documenting
//      or adding a member leaves no trace in its container's body;
//   2. whitespace normalised (runs collapsed to one space, trimmed);
//   3. the signature cut out: SymbolInfo.signature (whitespace-normalised, without a trailing `;`,
//      `,` or truncation `...`) where it first occurs, else the longest of its suffixes that drops
//      leading words (export, default, modifiers, annotations) one by one, and with it the modifier
//      keywords right before it (MODIFIER_WORDS: a modifier is the `modifiers` aspect, not the
//      body's); all text kept when none occurs;
//   4. `;` and `,` at either end dropped, every whole-word occurrence of the symbol's own name
//      replaced by a placeholder (so a rename alone leaves the hash alone);
//   5. sha256, the first 13 base32 characters; '' when no text is left (an abstract method, a
//      property without initializer, an interface member), or nothing but brackets, separators
//      and the name (a class whose members are all cut, a declaration the outline has no node for
//      and so only its name): such a text holds no code, and one hash shared by all of them would
//      make each look like a rename of any other.
// The doc fingerprint is the same hash of SymbolInfo.doc, '' when there is none.
import { base32, LEADING_MODIFIERS, lineStarts, sha256Bytes, type DeclRecord, type OutlineNode } from '@sextant/format';
import type { CollectedSymbol, SymbolInfo } from './index-collector.ts';

export const FINGERPRINT_LENGTH = 13;
/** Stands for the symbol's own name in the hashed text. */
const NAME_PLACEHOLDER = '\u0001';
const WHITESPACE = /\s+/g;
const SEPARATORS = /^[\s;,]+|[\s;,]+$/g;
/** Modifier keywords of TypeScript, Java and Kotlin, as they stand before a declaration's signature (step 3). */
const TRAILING_MODIFIERS = /(?:^|\s)(?:(?:export|default|declare|public|private|protected|internal|static|abstract|async|readonly|override|accessor|final|open|sealed|synchronized|native|transient|volatile|strictfp|suspend|inline|lateinit|const)\s*)+$/;
/** A text without code (step 5): brackets, separators and the placeholder only. */
const NO_CODE = /^[\s{}()[\];,\u0001]*$/;

export interface DeclSource {
  path: string;
  text: string;
  syms: readonly string[];
  outline: readonly OutlineNode[];
  /** Each declaration's whole signature by its name's `line:column` (CompiledFile.signatures); absent: SymbolInfo.signature. */
  signatures?: ReadonlyMap<string, string>;
}

type Def = SymbolInfo['defs'][number];

/** The decls of one file; `symbols` is the collector's (every symbol the file's syms name is in it). */
export function declsOf(file: DeclSource, symbols: ReadonlyMap<string, CollectedSymbol>): DeclRecord[] {
  const found: { sym: number; info: SymbolInfo; defs: Def[] }[] = [];
  for (let sym = 0; sym < file.syms.length; sym++) {
    const info = symbols.get(file.syms[sym]!)?.info;
    if (!info || info.local || info.external) continue;
    const defs = info.defs.filter((d) => d[0] === file.path).sort((a, b) => a[1] - b[1] || a[2] - b[2]);
    if (defs.length > 0) found.push({ sym, info, defs });
  }
  if (found.length === 0) return [];
  found.sort((a, b) => a.defs[0]![1] - b.defs[0]![1] || a.defs[0]![2] - b.defs[0]![2] || a.sym - b.sym);

  const outlineAt = new Map<string, OutlineNode>();
  const index = (nodes: readonly OutlineNode[]) => {
    for (const node of nodes) {
      const at = `${node.at[0]}:${node.at[1]}`;
      if (!outlineAt.has(at)) outlineAt.set(at, node);
      index(node.children);
    }
  };
  index(file.outline);
  const declaredAt = new Set<string>();
  for (const { defs } of found) for (const d of defs) declaredAt.add(`${d[1]}:${d[2]}`);
  const text = new SourceText(file.text);
  const position = new Map(found.map((f, i) => [f.info.key, i]));

  return found.map(({ info, defs }): DeclRecord => {
    const pieces: string[] = [];
    const signatures: string[] = [];
    let range: DeclRecord['range'] | undefined;
    for (const d of defs) {
      const node = outlineAt.get(`${d[1]}:${d[2]}`);
      const r: DeclRecord['range'] = node ? node.range : [d[1], d[2], d[3], d[4]];
      range ??= r;
      const piece = text.without(r, node ? nestedDecls(node, declaredAt) : []);
      // Each declaration's own signature cut from its text (a function merged with a type of its name has two).
      const signature = file.signatures?.get(`${d[1]}:${d[2]}`);
      if (signature !== undefined) signatures.push(signature.replace(WHITESPACE, ' ').trim().replace(LEADING_MODIFIERS, ''));
      pieces.push(signature !== undefined ? withoutSignature(piece.replace(WHITESPACE, ' ').trim(), signature) : piece);
    }
    const first = defs[0]!;
    const wholeSignatures = file.signatures !== undefined && signatures.length === defs.length;
    return {
      key: info.key,
      name: info.name,
      kind: info.kind,
      qname: info.qname,
      mods: info.mods,
      ...(info.signature !== undefined ? { signature: info.signature } : {}),
      container: info.container !== undefined ? position.get(info.container) ?? -1 : -1,
      at: [first[1], first[2], first[3], first[4]],
      range: range!,
      body: bodyFingerprint(pieces.join(' '), wholeSignatures ? undefined : info.signature, info.name),
      doc: info.doc ? fingerprint(info.doc) : '',
      ...(wholeSignatures ? { sig: fingerprint(maskWord(signatures.join(' | '), info.name, true)) } : {}),
    };
  });
}

/** sha256 of the text, 13 base32 characters. */
export function fingerprint(text: string): string {
  return base32(sha256Bytes(text), FINGERPRINT_LENGTH);
}

/** Steps 2 to 5 of the rule above, on the text of step 1. */
export function bodyFingerprint(source: string, signature: string | undefined, name: string): string {
  let text = source.replace(WHITESPACE, ' ').trim();
  if (signature) text = withoutSignature(text, signature);
  text = maskWord(text.replace(SEPARATORS, ''), name);
  return NO_CODE.test(text) ? '' : fingerprint(text);
}

function withoutSignature(text: string, signature: string): string {
  let probe = signature.replace(WHITESPACE, ' ').trim();
  if (probe.endsWith('...')) probe = probe.slice(0, -3).trimEnd();
  probe = probe.replace(SEPARATORS, '');
  // Each suffix starts after a space: drop the leading words one by one, longest first.
  for (let from = 0; from >= 0 && from < probe.length; from = nextWord(probe, from)) {
    const at = text.indexOf(from === 0 ? probe : probe.slice(from));
    if (at >= 0) return `${text.slice(0, at).replace(TRAILING_MODIFIERS, '')} ${text.slice(at + probe.length - from)}`.replace(WHITESPACE, ' ').trim();
  }
  return text;
}

function nextWord(text: string, from: number): number {
  const space = text.indexOf(' ', from);
  return space < 0 ? -1 : space + 1;
}

/**
 * Every occurrence of `word` not inside a longer identifier, replaced by the placeholder; with
 * `unqualified`, after the first (the declared name, `this.items` too) not one after a `.`
 * (`Schema.toCodec<S>` in the signature of a function `toCodec` names another module's symbol,
 * which renaming the function leaves alone).
 */
function maskWord(text: string, word: string, unqualified = false): string {
  if (!word) return text;
  let out = '';
  let last = 0;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
    const end = at + word.length;
    if (isIdentifierChar(text.charCodeAt(at - 1)) || isIdentifierChar(text.charCodeAt(end))) continue;
    if (unqualified && last > 0 && text[at - 1] === '.') continue;
    out += text.slice(last, at) + NAME_PLACEHOLDER;
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

function isIdentifierChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
    || code === 36 || code === 95 || code > 127;
}

/** The outermost descendants of `node` that are declarations of their own (their text is cut from its body). */
function nestedDecls(node: OutlineNode, declaredAt: ReadonlySet<string>): OutlineNode['range'][] {
  const ranges: OutlineNode['range'][] = [];
  const walk = (children: readonly OutlineNode[]) => {
    for (const child of children) {
      if (declaredAt.has(`${child.at[0]}:${child.at[1]}`)) ranges.push(child.range);
      else walk(child.children);
    }
  };
  walk(node.children);
  return ranges;
}

/** A file's text addressed by the index's positions (1-based lines, 1-based UTF-16 columns). */
class SourceText {
  private readonly lineStarts: number[];

  constructor(private readonly text: string) {
    this.lineStarts = lineStarts(text);
  }

  offset(line: number, column: number): number {
    const start = this.lineStarts[line - 1];
    return start === undefined ? this.text.length : Math.min(this.text.length, start + column - 1);
  }

  /** The text of `range` without the text of `cuts` (ranges inside it, in order), each with the comments before it and a `;` or `,` after it. */
  without(range: readonly number[], cuts: readonly (readonly number[])[]): string {
    const end = this.offset(range[2]!, range[3]!);
    let at = this.offset(range[0]!, range[1]!);
    let out = '';
    for (const cut of cuts) {
      const from = this.leadingComments(Math.max(at, this.offset(cut[0]!, cut[1]!)), at);
      let to = Math.min(end, this.offset(cut[2]!, cut[3]!));
      if (from >= to) continue;
      while (to < end && (this.text[to] === ' ' || this.text[to] === '\t')) to++;
      if (to < end && (this.text[to] === ';' || this.text[to] === ',')) to++;
      out += `${this.text.slice(at, from)} `;
      at = to;
    }
    return out + this.text.slice(at, end);
  }

  /** Where the comments (block or line) right before `from` begin, not before `floor`. */
  private leadingComments(from: number, floor: number): number {
    const text = this.text;
    for (;;) {
      let at = from;
      while (at > floor && isSpace(text.charCodeAt(at - 1))) at--;
      if (at - 2 >= floor && text.startsWith('*/', at - 2)) {
        const open = text.lastIndexOf('/*', at - 3);
        if (open < floor) return from;
        from = open;
        continue;
      }
      // Line comments: the line ending at `at` holds nothing but one (a trailing comment after
      // code on that line belongs to the code).
      const lineStart = Math.max(floor, text.lastIndexOf('\n', at - 1) + 1);
      let start = lineStart;
      while (start < at && isSpace(text.charCodeAt(start))) start++;
      if (at > floor && start < from && text.startsWith('//', start)) {
        from = start;
        continue;
      }
      return from;
    }
  }
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}
