// The baseline's reading rules: what a careful reader concludes from ripgrep's hits and the lines
// it read around them (the import block, ±20 lines, the enclosing declaration). Pure functions of
// text, so each rule is unit-tested; README.md states them in words.
import { dirname, join, normalize } from 'node:path';

/** Lines read around each hit. */
export const WINDOW = 20;

export interface Import {
  /** The name as written in the importing file. */
  local: string;
  /** The name exported by the module (`default`, `*` for a namespace import). */
  imported: string;
  specifier: string;
}

/** The last line (1-based) of the file's leading import block; 0 when it has none. */
export function importBlockEnd(lines: string[]): number {
  let end = 0;
  let inImport = false;
  let inComment = false;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (inComment) {
      if (line.includes('*/')) inComment = false;
      continue;
    }
    if (inImport) {
      end = i + 1;
      if (/\bfrom\s+['"][^'"]+['"]|^['"][^'"]+['"];?$|;\s*$/.test(line)) inImport = false;
      continue;
    }
    if (line === '' || line.startsWith('//') || line.startsWith('#!')) continue;
    if (line.startsWith('/*')) {
      if (!line.includes('*/')) inComment = true;
      continue;
    }
    if (/^import\b/.test(line)) {
      end = i + 1;
      inImport = !/\bfrom\s+['"][^'"]+['"]|^import\s+['"][^'"]+['"]/.test(line);
      continue;
    }
    break;
  }
  return end;
}

/** The imports of an import block's text. */
export function parseImports(block: string): Import[] {
  const out: Import[] = [];
  for (const match of block.matchAll(/\bimport\s+(?:type\s+)?([\s\S]*?)\s*\bfrom\s*['"]([^'"]+)['"]/g)) {
    const clause = match[1]!;
    const specifier = match[2]!;
    const namespace = /\*\s+as\s+([\w$]+)/.exec(clause);
    if (namespace) out.push({ local: namespace[1]!, imported: '*', specifier });
    const named = /\{([\s\S]*?)\}/.exec(clause);
    if (named) {
      for (const part of named[1]!.split(',')) {
        const m = /^\s*(?:type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(part);
        if (m) out.push({ local: m[2] ?? m[1]!, imported: m[1]!, specifier });
      }
    }
    const def = /^\s*(?:type\s+)?([\w$]+)\s*(?:,|$)/.exec(clause.replace(/\{[\s\S]*?\}/, '').replace(/\*\s+as\s+[\w$]+/, ''));
    if (def && def[1] !== 'type') out.push({ local: def[1]!, imported: 'default', specifier });
  }
  return out;
}

/**
 * The files a module specifier may name, as a reader resolves it: relative to the importing file
 * (with or without its .js/.ts suffix, or a directory's index), or through the corpus's path
 * mappings (`rxjs` → `src/index.ts`), which a reader of the repository knows.
 */
export function resolveSpecifier(from: string, specifier: string, paths: Record<string, string[]>, exists: (path: string) => boolean): string | undefined {
  const bases: string[] = [];
  if (specifier.startsWith('.')) bases.push(normalize(join(dirname(from), specifier)));
  else {
    for (const [pattern, targets] of Object.entries(paths)) {
      const star = pattern.indexOf('*');
      if (star < 0 ? pattern === specifier : specifier.startsWith(pattern.slice(0, star)) && specifier.endsWith(pattern.slice(star + 1))) {
        const middle = star < 0 ? '' : specifier.slice(star, specifier.length - (pattern.length - star - 1));
        for (const target of targets) bases.push(normalize(target.replace('*', middle)));
      }
    }
  }
  for (const base of bases) {
    const stem = base.replace(/\.(js|ts|mjs|mts)$/, '');
    for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}.js`]) {
      if (exists(candidate)) return candidate;
    }
  }
  return undefined;
}

const escape = (name: string) => name.replace(/[$]/g, '\\$');
const MODIFIERS = '(?:(?:export|default|declare|public|private|protected|static|readonly|abstract|async|override|get|set)\\s+)*';

/** A top-level (or local) declaration of `name` on the line: function, class, interface, type, enum, const/let/var, namespace. */
export function declaresTopLevel(text: string, name: string): boolean {
  return new RegExp(`^\\s*${MODIFIERS}(?:function\\*?|class|interface|type|enum|const|let|var|namespace)\\s+${escape(name)}(?![\\w$])`).test(text);
}

/**
 * A member declaration of `name` on the line: a method with its body or a signature with a return
 * type, or a property. A head whose parameters run onto the next lines (`name(`) is a declaration
 * when the line closing them (among `next`, the lines after it) opens a body or ends a signature,
 * and a call otherwise (`);`).
 */
export function declaresMember(text: string, name: string, next: string[] = []): boolean {
  const head = `^\\s*${MODIFIERS}\\*?${escape(name)}\\s*[?!]?\\s*`;
  if (new RegExp(`${head}(?:<.*>)?\\s*\\(.*\\)\\s*(?::.*)?\\{\\s*$`).test(text)) return true;
  if (new RegExp(`${head}(?:<.*>)?\\s*\\(.*\\)\\s*:.*;\\s*$`).test(text)) return true;
  if (new RegExp(`${head}:\\s*[^=(]+[;,]?\\s*$`).test(text)) return true;
  if (new RegExp(`${head}(?:<.*>)?\\s*\\([^)]*$`).test(text)) {
    const closing = next.slice(0, 12).find((line) => /^\s*\)/.test(line));
    return closing !== undefined && /^\s*\)\s*(?::.*)?(?:\{|;)\s*$/.test(closing) && !/^\s*\)\s*;\s*$/.test(closing);
  }
  return false;
}

export function declares(text: string, name: string, next: string[] = []): boolean {
  return declaresTopLevel(text, name) || declaresMember(text, name, next);
}

/** Each occurrence of `name` as a whole word on the line: its 0-based column. */
export function occurrences(text: string, name: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(new RegExp(`(?<![\\w$])${escape(name)}(?![\\w$])`, 'g'))) out.push(m.index!);
  return out;
}

/** The identifier before `.name` at `column`, or '' when there is a `.` but no plain identifier (`a().name`), or undefined when the name is not a member access. */
export function receiverAt(text: string, column: number): string | undefined {
  const before = text.slice(0, column).replace(/\?$/, '');
  if (!before.endsWith('.')) return undefined;
  const m = /([\w$]+)\s*\??\.$/.exec(before);
  return m ? m[1]! : '';
}

/** Whether the occurrence at `column` is called: `name(`, `name<T>(`, or a tagged `name.call(`. */
export function isCallAt(text: string, column: number, name: string): boolean {
  const after = text.slice(column + name.length);
  return /^\s*(?:<[^()]*>)?\s*\(/.test(after) || /^\s*\??\.\s*(?:call|apply)\s*\(/.test(after);
}

/** Import and export statements: naming a symbol there is not using it. */
export function isImportOrExportLine(text: string): boolean {
  return /^\s*import\b/.test(text) || /^\s*export\s*(?:type\s*)?(?:\*|\{)/.test(text) || /^\s*\}\s*from\s*['"]/.test(text);
}

/** Inclusive line ranges, merged where they overlap or touch. */
export function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * The windows a reader opens in one file: ±WINDOW lines around each hit line, and the import
 * block (lines 1..importEnd) when the file has one, merged where they overlap.
 */
export function windowsOf(hitLines: number[], importEnd: number, lineCount: number): [number, number][] {
  const ranges: [number, number][] = hitLines.map((l) => [Math.max(1, l - WINDOW), Math.min(lineCount, l + WINDOW)]);
  if (importEnd > 0) ranges.push([1, importEnd]);
  return mergeRanges(ranges);
}

/** The text inside the parentheses opening at or after `from` (in `text`), or undefined if they do not close. */
export function parenthesized(text: string, from: number): string | undefined {
  const open = text.indexOf('(', from);
  if (open < 0) return undefined;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return undefined;
}

/** Top-level comma-separated parts (ignoring commas nested in (), [], {}, <> and strings). */
export function topLevelParts(list: string): string[] {
  const text = list.replace(/=>/g, '~~');
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if ('([{<'.includes(c)) depth++;
    else if (')]}>'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** How many arguments a signature's parameter list takes: required ones, and at most (Infinity with a rest parameter). */
export function arityOf(parameters: string): { min: number; max: number } {
  const parts = topLevelParts(parameters).filter((p) => !/^this\s*:/.test(p));
  let min = 0;
  for (const p of parts) {
    if (p.startsWith('...')) return { min, max: Infinity };
    if (!/^[\w$]+\?/.test(p) && !/=/.test(p.replace(/~~/g, ''))) min++;
  }
  return { min, max: parts.length };
}

export const CALL_KEYWORDS = new Set(['this', 'synchronized', 'assert', 'if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'typeof', 'super', 'await', 'yield', 'void', 'with', 'do', 'else', 'new', 'delete', 'in', 'of', 'instanceof', 'throw', 'case']);

/** A call in a body: the name called and what it is called on (`this`, a namespace, a type, a variable), if anything. */
export interface CalledName {
  name: string;
  receiver?: string;
  /** Called on an expression that is not a plain name (`a().m(`, `a[0].m(`). */
  member: boolean;
}

/** Names called in a body: `f(`, `obj.m(`, `Type.m(`, `new C(` (keywords and annotations left out), each name and receiver once. */
export function calledNames(body: string): CalledName[] {
  const out = new Map<string, CalledName>();
  const code = body.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, '""');
  for (const m of code.matchAll(/(?:(?<![\w$])([\w$]+)\s*\??\.\s*|(\.\s*))?(?<![\w$@])([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\s*\(/g)) {
    const name = m[3]!;
    if (CALL_KEYWORDS.has(name)) continue;
    const call: CalledName = { name, member: m[2] !== undefined, ...(m[1] !== undefined ? { receiver: m[1] } : {}) };
    const key = `${name}\0${call.receiver ?? ''}\0${call.member}`;
    if (!out.has(key)) out.set(key, call);
  }
  return [...out.values()];
}

/** The lines of a declaration starting at `line` (1-based): to the brace that closes its body, or its `;`. */
export function declarationRange(lines: string[], line: number): [number, number] {
  let depth = 0;
  let opened = false;
  for (let i = line - 1; i < lines.length; i++) {
    const text = lines[i]!.replace(/\/\/.*$/, '').replace(/(['"`])(?:\\.|(?!\1)[^\\])*\1/g, '""');
    for (const c of text) {
      if (c === '{') {
        depth++;
        opened = true;
      } else if (c === '}') depth--;
    }
    if (opened && depth <= 0) return [line, i + 1];
    if (!opened && /;\s*$/.test(text) && depth === 0) return [line, i + 1];
  }
  return [line, lines.length];
}

// ---------------------------------------------------------------------------------------------
// Java: the same reading, with Java's import block, declarations and name visibility.

const JAVA_MODIFIERS = '(?:(?:public|private|protected|static|final|abstract|sealed|non-sealed|strictfp|default|synchronized|native|transient|volatile)\\s+|@[\\w.]+(?:\\([^)]*\\))?\\s+)*';
const NOT_A_TYPE = /^(?:return|throw|new|else|case|yield|assert|package|import)$/;

/** The last line of the leading package declaration, imports and comments of a Java file. */
export function javaImportBlockEnd(lines: string[]): number {
  let end = 0;
  let inComment = false;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (inComment) {
      if (line.includes('*/')) inComment = false;
      continue;
    }
    if (line === '' || line.startsWith('//')) continue;
    if (line.startsWith('/*')) {
      if (!line.includes('*/')) inComment = true;
      continue;
    }
    if (/^(?:package|import)\b/.test(line)) {
      end = i + 1;
      continue;
    }
    break;
  }
  return end;
}

/** Java imports: `import a.b.C;` (local C), `import a.b.*;` (local *), `import static a.b.C.m;` (local m). */
export function parseJavaImports(block: string): Import[] {
  const out: Import[] = [];
  for (const m of block.matchAll(/^\s*import\s+(static\s+)?([\w.]+?)(\.\*)?\s*;/gm)) {
    const name = m[2]!;
    if (m[3]) out.push({ local: '*', imported: '*', specifier: name });
    else out.push({ local: name.slice(name.lastIndexOf('.') + 1), imported: name.slice(name.lastIndexOf('.') + 1), specifier: name });
  }
  return out;
}

/** A type declaration of `name`: class, interface, enum, record, annotation. */
export function javaDeclaresType(text: string, name: string): boolean {
  return new RegExp(`^\\s*${JAVA_MODIFIERS}(?:class|interface|enum|record|@interface)\\s+${escape(name)}(?![\\w$])`).test(text);
}

/**
 * A method or field declaration of `name`: a type before the name (not `return x;`), then `(` for a
 * method (its head closing on this line or, among `next`, with `{`, `throws` or `;`), or `=`, `;`, `,` for a field.
 */
export function javaDeclaresMember(text: string, name: string, next: string[] = []): boolean {
  const m = new RegExp(`^\\s*${JAVA_MODIFIERS}(?:<[^>]*>\\s+)?([\\w$.]+(?:<.*>)?(?:\\[\\])*)\\s+${escape(name)}\\s*([(=;,])`).exec(text);
  if (!m || NOT_A_TYPE.test(m[1]!)) return false;
  if (m[2] !== '(') return true;
  const head = [text, ...next.slice(0, 8)];
  for (const line of head) {
    if (/\)\s*(?:throws\s[^{;]*)?\{\s*$|\)\s*(?:throws\s[^{;]*)?;\s*$/.test(line)) return true;
    if (/;\s*$/.test(line) || /\{\s*$/.test(line)) return false;
  }
  return false;
}

/**
 * The file a type name used in a Java file comes from, as a reader tells from the file's package
 * and imports: a single-type import, the file's own package, a wildcard import, or java.lang.
 * `module` is the source root (java.base) the packages are under.
 */
export function javaTypeOrigin(from: string, name: string, imports: Import[], module: string, exists: (path: string) => boolean): string | undefined {
  const fileOf = (qualified: string) => {
    // The longest prefix that is a file: `java.util.Map.Entry` is in java/util/Map.java.
    const parts = qualified.split('.');
    for (let n = parts.length; n > 0; n--) {
      const path = `${module}/${parts.slice(0, n).join('/')}.java`;
      if (exists(path)) return path;
    }
    return undefined;
  };
  const single = imports.find((i) => i.local === name && i.imported !== '*');
  if (single) return fileOf(single.specifier);
  const samePackage = `${dirname(from)}/${name}.java`;
  if (exists(samePackage)) return samePackage;
  for (const wildcard of imports.filter((i) => i.imported === '*')) {
    const path = fileOf(`${wildcard.specifier}.${name}`);
    if (path) return path;
  }
  return fileOf(`java.lang.${name}`);
}

/** A class or interface header without its type arguments: `extends HashMap<K, ClientVector>` names HashMap, not ClientVector. */
export function withoutTypeArguments(header: string): string {
  let text = header.replace(/->|=>/g, '~~');
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(/<[^<>]*>/g, '');
  }
  return text;
}
