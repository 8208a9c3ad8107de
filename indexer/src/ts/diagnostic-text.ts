// A compiler message as the index stores it: the same for the same program on every machine and in
// every build. The checker prints a union's members in the order it created their types, which
// depends on which files it checked before (an incremental build checks fewer than a full one), so
// the members of every union inside a quoted type are sorted. The checker must print types whole
// (`noErrorTruncation`, project-plan.ts): a union it cuts (`A | ... 6 more ... | B`) keeps the
// members it happened to create first, which no sort afterwards can undo; a quoted type longer than
// MAX_TYPE_CHARS is cut here instead, after sorting, the same in every build. An absolute path of
// this machine (`import("/home/ci/repo/src/a")`) is printed relative to the repository root.

/** A quoted type is cut after this many characters (the compiler's own cut is at 160, before sorting). */
export const MAX_TYPE_CHARS = 1000;

/** The message with the repository root's absolute path taken out, every union in a quoted type sorted, and long types cut. */
export function canonicalMessage(message: string, root: string): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const relative = message.split(prefix).join('');
  // Types are quoted with single quotes; string literal types inside them with double quotes.
  return relative.replace(/'([^'\n]*)'/g, (_whole, type: string) => `'${cut(sortedUnions(type))}'`);
}

function cut(type: string): string {
  return type.length <= MAX_TYPE_CHARS ? type : `${type.slice(0, MAX_TYPE_CHARS)} ... ${type.length - MAX_TYPE_CHARS} more characters`;
}

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/**
 * The type text with the members of each union sorted, at every bracket depth, and the properties
 * of each object type sorted by name. A union is a run of members separated by `|` between the
 * separators `,` and `;`; what comes before a member list's last `: ` or `=> ` at its own depth (a
 * property's name, a function's parameters) stays in front.
 */
export function sortedUnions(type: string): string {
  let at = 0;
  const group = (close: string | undefined): string => {
    const segments: string[] = [];
    let members: string[] = [];
    let current = '';
    const endSegment = () => {
      members.push(current);
      segments.push(sortMembers(members));
      members = [];
      current = '';
    };
    while (at < type.length) {
      const c = type[at]!;
      if (c === '"') {
        const end = type.indexOf('"', at + 1);
        const stop = end < 0 ? type.length : end + 1;
        current += type.slice(at, stop);
        at = stop;
      } else if (c === '=' && type[at + 1] === '>') {
        current += '=>';
        at += 2;
      } else if (OPEN[c]) {
        at++;
        current += c + group(OPEN[c]);
      } else if (c === close) {
        at++;
        endSegment();
        return (c === '}' ? sortedProperties(segments) : segments).join('') + c;
      } else if (c === '|' && current.trim() !== '') {
        members.push(current);
        current = '';
        at++;
      } else if (c === ',' || c === ';') {
        current += c;
        at++;
        endSegment();
      } else {
        current += c;
        at++;
      }
    }
    endSegment();
    return segments.join('');
  };
  return group(undefined);
}

/** A named member of an object type (`readonly a?: T;`, `m(x: T): U;`), its name; undefined for signatures and index signatures. */
const PROPERTY = /^\s*(?:readonly\s+)?("(?:[^"\\]|\\.)*"|[\w$#]+)\??\s*[:(<]/;

/**
 * An object type's members with its named ones sorted by name, in the places named ones held: a
 * mapped type's properties come in the order of its keys' union, which is the order the checker
 * created the key types in. A stable sort keeps a method's overloads in their order; call,
 * construct and index signatures stay where they are.
 */
function sortedProperties(segments: string[]): string[] {
  const slots: number[] = [];
  const named: { name: string; text: string }[] = [];
  segments.forEach((text, i) => {
    const name = text.trimEnd().endsWith(';') ? PROPERTY.exec(text)?.[1] : undefined;
    if (name === undefined) return;
    slots.push(i);
    named.push({ name, text });
  });
  if (named.length < 2) return segments;
  named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out = [...segments];
  slots.forEach((slot, i) => {
    out[slot] = named[i]!.text;
  });
  return out;
}

/** A union's members in order, the text before its first member's last `: ` or `=> ` kept in front. */
function sortMembers(members: string[]): string {
  if (members.length < 2) return members.join('|');
  const first = members[0]!;
  const cut = afterLastLabel(first);
  const prefix = cut < 0 ? '' : first.slice(0, cut);
  const parts = [cut < 0 ? first : first.slice(cut), ...members.slice(1)];
  const trailing = /[,;]\s*$/.exec(parts[parts.length - 1]!)?.[0] ?? '';
  if (trailing) parts[parts.length - 1] = parts[parts.length - 1]!.slice(0, -trailing.length);
  const trimmed = parts.map((p) => p.trim());
  const lead = /^\s*/.exec(parts[0]!)![0];
  return `${prefix}${lead}${trimmed.sort().join(' | ')}${/\s*$/.exec(parts[parts.length - 1]!)![0]}${trailing}`;
}

/** The index just after the last `: ` or `=> ` of `text` outside brackets and string literals, -1 when none. */
function afterLastLabel(text: string): number {
  let depth = 0;
  let found = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      i = end < 0 ? text.length : end;
    } else if (c === '=' && text[i + 1] === '>') {
      if (depth === 0 && text[i + 2] === ' ') found = i + 3;
      i++;
    } else if ('([{<'.includes(c)) depth++;
    else if (')]}>'.includes(c)) depth--;
    else if (depth === 0 && c === ':' && text[i + 1] === ' ') found = i + 2;
  }
  return found;
}
