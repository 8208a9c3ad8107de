// Unresolved identifiers (FileRecord.unresolved): the references the checker resolved to no symbol,
// which a review cannot follow to a changed declaration. Declarations, labels and JSX intrinsics are
// not references, and a file whose names all resolve records none.
import { describe, expect, it } from 'vitest';
import { indexSnippet } from './index-snippet.ts';

/** Each unresolved entry of `path` as `line:column-endLine:endColumn name (kind)`, the name checked against the text. */
function unresolvedOf(files: Record<string, string>, path: string): string[] {
  const file = indexSnippet(files).files.get(path)!;
  const lines = files[path]!.split('\n');
  return (file.unresolved ?? []).map((u) => {
    expect(lines[u.line - 1]!.slice(u.column - 1, u.endColumn - 1)).toBe(u.name);
    return `${u.line}:${u.column}-${u.endLine}:${u.endColumn} ${u.name} (${u.kind})`;
  });
}

describe('unresolved identifiers', () => {
  it('records a member of an any and a name the checker cannot find', () => {
    const files = { 'src/a.ts': 'declare const x: any;\nx.foo();\nmissingName();\n' };
    expect(unresolvedOf(files, 'src/a.ts')).toEqual(['2:3-2:6 foo (call)', '3:1-3:12 missingName (call)']);
  });

  it('records nothing for calls that resolve', () => {
    const files = {
      'src/a.ts': 'export function run(n: number): number { return n; }\nrun(1);\nconsole.log(run(2), [1].map(String));\n',
    };
    expect(unresolvedOf(files, 'src/a.ts')).toEqual([]);
  });

  it('does not count declarations, untyped object literal keys, labels or JSX intrinsic elements', () => {
    const files = {
      'src/a.tsx': [
        'const literal = { key: 1, nested: { deep: true } };',
        'outer: for (const item of [1]) { if (item) break outer; }',
        'export const view = <div className="a">{literal.key}</div>;',
        'export { literal };',
      ].join('\n'),
    };
    expect(unresolvedOf(files, 'src/a.tsx')).toEqual([]);
  });

  it('records a shorthand property whose value is not found (once) and an unknown index name', () => {
    const files = { 'src/a.ts': 'export const o = { absent };\nexport const v = o[unknownKey];\n' };
    expect(unresolvedOf(files, 'src/a.ts')).toEqual(['1:20-1:26 absent (read)', '2:20-2:30 unknownKey (read)']);
  });
});
