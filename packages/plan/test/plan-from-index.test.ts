// Plans from the index alone (what the hosted worker offers), on an in-memory index of a small
// Kotlin repository: renamed where the index says, inside quotes for string names, never through an
// alias, with every conflict the index can see (a name-only candidate, a generated file, a name
// already declared next to it) and usages that block a safe delete. The plan's result hashes are
// what its edits give.
import { describe, expect, it } from 'vitest';
import { FILE_FLAGS } from '@sextant/format';
import { fileText, findImplementations, findSuperMethods } from '@sextant/query';
import { applyEdits, planHashMatches, planRenameFromIndex, planSafeDeleteFromIndex, textHash } from '../src/index.ts';
import { buildMemoryIndex, openMemoryIndex } from '../../query/test/support/memory-index.ts';

const REPO = `interface Repo {
    fun save(order: String)
    fun store(order: String)
}

/** Unused. */
fun helper() {}
`;

const USE = `import shop.Repo as Storage

fun use(r: Storage, x: Any) {
    r.save("a")
    x.save("b")
    call("save")
}
`;

const GEN = `fun gen(r: Repo) { r.save("g") }
`;

// Impl.save takes an Array<String> where Repo.save takes a String: no override edge, as many parameters.
const MORE = `class Impl : Repo {
    override fun save(order: Array<String>) {}
    override fun store(order: String) {}
    fun save(a: Int, b: Int) {}
}

fun more(m: Mystery) { m.save("m") }
`;

const index = buildMemoryIndex({
  files: [
    { path: 'src/Repo.kt', text: REPO, lang: 'kotlin' },
    { path: 'src/Use.kt', text: USE, lang: 'kotlin' },
    { path: 'gen/Gen.kt', text: GEN, lang: 'kotlin', flags: FILE_FLAGS.generated },
    { path: 'src/More.kt', text: MORE, lang: 'kotlin', unresolved: [{ name: 'save', line: 7, kind: 'call', from: 'more' }] },
  ],
  symbols: [
    {
      id: 'Repo', name: 'Repo', kind: 'interface', lang: 'kotlin', defs: [{ path: 'src/Repo.kt', line: 1 }],
      refs: [
        { path: 'src/Use.kt', line: 1, kind: 'import' },
        { path: 'src/Use.kt', line: 3, kind: 'type', text: 'Storage' },
        { path: 'gen/Gen.kt', line: 1, kind: 'type' },
      ],
    },
    {
      id: 'Repo.save', name: 'save', qname: 'Repo.save', kind: 'method', lang: 'kotlin', container: 'Repo', defs: [{ path: 'src/Repo.kt', line: 2 }],
      signature: 'fun save(order: String)',
      refs: [
        { path: 'src/Use.kt', line: 4, kind: 'call' },
        { path: 'src/Use.kt', line: 5, kind: 'call', confidence: 'candidate' },
        { path: 'src/Use.kt', line: 6, kind: 'read', text: '"save"' },
        { path: 'gen/Gen.kt', line: 1, kind: 'call' },
      ],
    },
    { id: 'Repo.store', name: 'store', qname: 'Repo.store', kind: 'method', lang: 'kotlin', container: 'Repo', defs: [{ path: 'src/Repo.kt', line: 3 }] },
    { id: 'helper', name: 'helper', kind: 'function', lang: 'kotlin', defs: [{ path: 'src/Repo.kt', line: 7 }] },
    { id: 'Impl', name: 'Impl', kind: 'class', lang: 'kotlin', defs: [{ path: 'src/More.kt', line: 1 }], implements: ['Repo'] },
    {
      id: 'Impl.save', name: 'save', qname: 'Impl.save', kind: 'method', lang: 'kotlin', container: 'Impl', defs: [{ path: 'src/More.kt', line: 2 }],
      signature: 'override fun save(order: Array<String>)',
    },
    {
      id: 'Impl.store', name: 'store', qname: 'Impl.store', kind: 'method', lang: 'kotlin', container: 'Impl', defs: [{ path: 'src/More.kt', line: 3 }],
      signature: 'override fun store(order: String)', overrides: ['Repo.store'],
    },
    {
      id: 'Impl.save2', name: 'save', qname: 'Impl.save', kind: 'method', lang: 'kotlin', container: 'Impl', defs: [{ path: 'src/More.kt', line: 4 }],
      signature: 'fun save(a: Int, b: Int)',
    },
    { id: 'more', name: 'more', kind: 'function', lang: 'kotlin', defs: [{ path: 'src/More.kt', line: 7 }] },
  ],
});

async function renamed(plan: Awaited<ReturnType<typeof planRenameFromIndex>>): Promise<Record<string, string>> {
  const reader = await openMemoryIndex(index);
  const out: Record<string, string> = {};
  for (const file of plan.files) {
    const after = applyEdits(await fileText(reader, file.path), file.edits);
    expect(textHash(after)).toBe(file.resultHash);
    out[file.path] = after;
  }
  return out;
}

describe('planRenameFromIndex', () => {
  it('renames declarations and references, inside quotes, and leaves aliases alone', async () => {
    const plan = await planRenameFromIndex(await openMemoryIndex(index), { qualifiedName: 'Repo.save' }, 'persist');
    expect(planHashMatches(plan)).toBe(true);
    expect(plan).toMatchObject({ operation: 'rename', planner: 'index', arguments: { qualifiedName: 'Repo.save', newName: 'persist' } });
    const after = await renamed(plan);
    expect(after['src/Repo.kt']).toContain('    fun persist(order: String)\n    fun store(order: String)');
    expect(after['src/Use.kt']).toBe('import shop.Repo as Storage\n\nfun use(r: Storage, x: Any) {\n    r.persist("a")\n    x.persist("b")\n    call("persist")\n}\n');
    expect(plan.conflicts).toEqual([
      expect.objectContaining({ kind: 'candidate-usage', path: 'src/Use.kt', line: 5 }),
      expect.objectContaining({ kind: 'unresolved-usage', path: 'src/More.kt', line: 7 }),
      expect.objectContaining({ kind: 'unmatched-override', path: 'src/More.kt', line: 2 }),
      expect.objectContaining({ kind: 'generated-file', path: 'gen/Gen.kt' }),
    ]);
  });

  it('lists what the index could not decide: same-named calls that resolved to nothing, same-named members no override links', async () => {
    const reader = await openMemoryIndex(index);
    const linked = await planRenameFromIndex(reader, { qualifiedName: 'Repo.store' }, 'keep');
    expect(linked.conflicts).toEqual([]);
    expect(linked.files.map((f) => f.path).sort()).toEqual(['src/More.kt', 'src/Repo.kt']);
    const implementations = await findImplementations(reader, { qualifiedName: 'Repo.save' }, {});
    expect(implementations).toMatchObject({ results: [], totalIsExact: false, unresolved: { count: 1, examples: [{ path: 'src/More.kt', line: 2, column: 18, name: 'save' }] } });
    const supers = await findSuperMethods(reader, { path: 'src/More.kt', line: 2, column: 18 }, {});
    expect(supers.unresolved.examples).toEqual([{ path: 'src/Repo.kt', line: 2, column: 9, name: 'save' }]);
  });

  it('keeps the alias of an imported type and renames what it aliases', async () => {
    const after = await renamed(await planRenameFromIndex(await openMemoryIndex(index), { name: 'Repo' }, 'Store'));
    expect(after['src/Use.kt']).toContain('import shop.Store as Storage\n\nfun use(r: Storage, x: Any) {');
    expect(after['gen/Gen.kt']).toBe('fun gen(r: Store) { r.save("g") }\n');
  });

  it('reports a name already declared next to the symbol', async () => {
    const member = await planRenameFromIndex(await openMemoryIndex(index), { qualifiedName: 'Repo.save' }, 'store');
    expect(member.conflicts).toContainEqual(expect.objectContaining({ kind: 'name-collision', path: 'src/Repo.kt', line: 3 }));
    const topLevel = await planRenameFromIndex(await openMemoryIndex(index), { name: 'Repo' }, 'helper');
    expect(topLevel.conflicts).toContainEqual(expect.objectContaining({ kind: 'name-collision', path: 'src/Repo.kt', line: 7 }));
  });

  it('refuses names that are not identifiers, reserved words and the current name', async () => {
    const reader = await openMemoryIndex(index);
    for (const bad of ['fun', 'two words', '1st', 'save']) {
      await expect(planRenameFromIndex(reader, { qualifiedName: 'Repo.save' }, bad)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});

describe('planSafeDeleteFromIndex', () => {
  it('lists every usage, name-only candidates included, as a conflict, in reference order (generated code last)', async () => {
    const plan = await planSafeDeleteFromIndex(await openMemoryIndex(index), { qualifiedName: 'Repo.save' });
    expect(plan.conflicts.map((c) => `${c.kind} ${c.path}:${c.line}`)).toEqual([
      'usage src/Use.kt:4', 'candidate-usage src/Use.kt:5', 'usage src/Use.kt:6', 'usage gen/Gen.kt:1',
      'unresolved-usage src/More.kt:7', 'unmatched-override src/More.kt:2',
    ]);
    expect(plan.files.map((f) => f.path)).toEqual(['src/Repo.kt']);
  });

  it('is not blocked when nothing uses the symbol', async () => {
    const plan = await planSafeDeleteFromIndex(await openMemoryIndex(index), { name: 'helper' });
    expect(plan.conflicts).toEqual([]);
    expect(plan.files).toHaveLength(1);
  });
});
