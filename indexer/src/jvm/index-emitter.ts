// Turns resolved Java/Kotlin files into what the build stores: symbols (with their declarations),
// references with their confidence, edges (extends, implements, overrides, calls) and each file's
// occurrences and outline. Only `resolved` references become occurrences and call edges: a position
// lookup or a call hierarchy must not present a candidate as the answer.
import { pushOccurrence, symbolKey, type Confidence, type OutlineNode, type ReferenceKind } from '@sextant/format';
import type { IndexCollector, Site } from '../index-collector.ts';
import type { CompiledFile, UnresolvedName } from '../language-indexer.ts';
import type { StageClock } from '../stage-clock.ts';
import { FileResolution } from './file-resolution.ts';
import { packageOf, type ExternalTarget, type Resolution, type Target } from './resolution.ts';
import { JvmResolver } from './resolver.ts';
import { CALLABLE_KINDS, TYPE_KINDS } from './file-model.ts';
import type { Decl, FileDecls, SymbolTable } from './symbol-table.ts';

/** How the references of an index run resolved: the measure of how much of the answer is known. */
export interface ResolutionStats {
  resolved: number;
  candidate: number;
  unresolved: number;
  /** Names that refer to no symbol at all (package segments, Kotlin's `it`, an array's length). */
  ignored: number;
}

export class IndexEmitter {
  readonly stats: ResolutionStats = { resolved: 0, candidate: 0, unresolved: 0, ignored: 0 };
  private readonly resolver: JvmResolver;
  /** External symbols are met at every use: hash each identity once. */
  private readonly externalKeys = new Map<string, string>();

  constructor(private readonly collector: IndexCollector, private readonly table: SymbolTable, private readonly stages?: StageClock) {
    const emitted = stages?.begin('emit');
    this.resolver = new RecentFilesResolver(table);
    for (const decl of table.decls) {
      const def = decl.def;
      collector.addSymbol({
        key: decl.key,
        name: decl.name,
        kind: decl.kind,
        qname: decl.qname,
        lang: decl.file.lang,
        path: decl.file.path,
        mods: decl.mods,
        ...(def.signature ? { signature: def.signature } : {}),
        ...(def.doc ? { doc: def.doc } : {}),
        ...(decl.parent ? { container: decl.parent.key } : {}),
        ...(decl.local ? { local: true } : {}),
        defs: [[decl.file.path, def.line, def.column, def.endLine, def.endColumn]],
      });
    }
    emitted?.();
  }

  emit(fd: FileDecls): CompiledFile {
    const { file } = fd;
    // Resolved first, then emitted, so the bench's stage split can tell the two apart.
    const resolved = this.stages?.begin('resolve');
    const context = this.resolver.file(fd);
    const resolutions = file.refs.map((_, index) => context.resolve(index));
    resolved?.();
    const emitted = this.stages?.begin('emit');
    try {
      return this.emitResolved(fd, resolutions);
    } finally {
      emitted?.();
    }
  }

  private emitResolved(fd: FileDecls, resolutions: readonly Resolution[]): CompiledFile {
    const { file } = fd;
    const syms: string[] = [];
    const symIndex = new Map<string, number>();
    const occ: number[] = [];
    const unresolved: UnresolvedName[] = [];
    const occurrence = (key: string, range: Site, kind: ReferenceKind) => {
      let index = symIndex.get(key);
      if (index === undefined) {
        index = syms.length;
        symIndex.set(key, index);
        syms.push(key);
      }
      pushOccurrence(occ, { line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn, symbolIndex: index, kind });
    };

    for (const decl of fd.decls) {
      if (decl.def.name) occurrence(decl.key, this.site(fd, decl.def), 'definition');
      if (TYPE_KINDS.has(decl.kind)) this.typeEdges(fd, decl);
      else if ((CALLABLE_KINDS.has(decl.kind) || decl.kind === 'property') && decl.kind !== 'constructor') this.overrideEdges(decl);
    }

    file.refs.forEach((ref, index) => {
      const resolution = resolutions[index]!;
      if (resolution.ignored) {
        this.stats.ignored++;
        return;
      }
      if (resolution.targets.length === 0) {
        // A package segment is no symbol's name; anything else might be a reference nobody could decide.
        if (resolution.pkg !== undefined) {
          this.stats.ignored++;
          return;
        }
        this.stats.unresolved++;
        const from = ref.owner >= 0 ? fd.decls[ref.owner]!.key : undefined;
        unresolved.push({ name: ref.name, ...this.site(fd, ref), kind: resolution.kind, ...(from ? { from } : {}) });
        return;
      }
      this.stats[resolution.confidence === 'candidate' ? 'candidate' : 'resolved']++;
      const site = this.site(fd, ref);
      const from = ref.owner >= 0 ? fd.decls[ref.owner]!.key : undefined;
      const keys = resolution.targets.map((target) => this.keyOf(target));
      for (const key of keys) {
        this.collector.addReference(key, site, resolution.kind, from, resolution.confidence as Confidence);
        if (resolution.confidence === 'resolved') occurrence(key, site, resolution.kind);
      }
      if (from && resolution.confidence === 'resolved' && (resolution.kind === 'call' || resolution.kind === 'new')) {
        // `new Foo(…)` calls the constructor when there is one, else the class.
        this.collector.addEdge(from, 'calls', keys[keys.length - 1]!, site);
      }
    });

    const symbolOf = (key: string) => {
      if (!symIndex.has(key)) {
        symIndex.set(key, syms.length);
        syms.push(key);
      }
      return symIndex.get(key)!;
    };
    return { path: file.path, lang: file.lang, syms, occ, problems: file.problems, outline: outlineOf(fd, symbolOf), unresolved };
  }

  /** extends/implements, from a type to each supertype it names. */
  private typeEdges(fd: FileDecls, decl: Decl): void {
    for (const sup of this.resolver.supertypes(decl)) {
      if (sup.implicit) continue;
      const target: Target | undefined = sup.type.t === 'decl' ? { decl: sup.type.decl } : sup.type.t === 'ext' ? { ext: externalType(sup.type.fqn) } : undefined;
      if (!target || target.decl === decl) continue;
      const targetKind = target.decl?.kind;
      const kind = decl.kind === 'interface' ? 'extends'
        : targetKind ? (targetKind === 'interface' ? 'implements' : 'extends')
        : sup.superclass ? 'extends' : 'implements';
      const site = sup.ref >= 0 ? this.site(fd, fd.file.refs[sup.ref]!) : undefined;
      this.collector.addEdge(decl.key, kind, this.keyOf(target), site);
    }
  }

  /** overrides, from a method (or Kotlin property) to what it overrides on each supertype path. */
  private overrideEdges(decl: Decl): void {
    const declared = this.table.isOverride(decl);
    if (decl.file.lang === 'kotlin' && !declared) return;
    if (decl.file.lang === 'java' && /\b(static|private)\b/.test(decl.def.modifiers ?? '')) return;
    for (const target of this.resolver.overridden(decl, declared)) this.collector.addEdge(decl.key, 'overrides', this.keyOf(target));
  }

  private site(fd: FileDecls, range: { line: number; column: number; endLine: number; endColumn: number }): Site {
    return { path: fd.file.path, line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn };
  }

  private keyOf(target: Target): string {
    if (target.decl) return target.decl.key;
    return this.externalKey(target.ext!);
  }

  /** External symbols keep the qualified name they are known by, so "where do we use X" works. */
  private externalKey(ext: ExternalTarget): string {
    const identity = `ext|${ext.qname}|${ext.kind}`;
    let key = this.externalKeys.get(identity);
    if (key) return key;
    key = symbolKey(identity);
    this.externalKeys.set(identity, key);
    if (!this.collector.has(key)) {
      this.collector.addSymbol({
        key, name: ext.name, kind: ext.kind, qname: ext.qname, lang: ext.qname.startsWith('kotlin.') ? 'kotlin' : 'java',
        mods: 0, external: { package: ext.pkg }, defs: [],
      });
    }
    return key;
  }
}

/** Files whose resolution memo is kept: the one being emitted and those it asked about lately. */
const RECENT_FILES = 64;

/**
 * The resolver, keeping the memo of the last RECENT_FILES files it resolved in (each file's
 * resolutions, expression types and type names) instead of every file's until the run ends: files
 * are emitted one after another, a file asks again mostly about the few whose declarations it uses,
 * and what every file asks of a declaration (its type, supertypes, members) is memoised per
 * declaration by the resolver itself. A memo dropped and asked for again is computed again, alike.
 */
class RecentFilesResolver extends JvmResolver {
  private readonly recent = new Map<FileDecls, FileResolution>();

  override file(fd: FileDecls): FileResolution {
    let context = this.recent.get(fd);
    if (context) {
      this.recent.delete(fd); // most recent last
    } else {
      context = new FileResolution(this, fd);
      if (this.recent.size >= RECENT_FILES) this.recent.delete(this.recent.keys().next().value!);
    }
    this.recent.set(fd, context);
    return context;
  }
}

function externalType(fqn: string): ExternalTarget {
  return { qname: fqn, name: fqn.slice(fqn.lastIndexOf('.') + 1), kind: 'class', pkg: packageOf(fqn) };
}

/** The file's declarations that can be searched, nested as declared. */
function outlineOf(fd: FileDecls, symbolOf: (key: string) => number): OutlineNode[] {
  const roots: OutlineNode[] = [];
  const nodes = new Map<Decl, OutlineNode>();
  for (const decl of fd.decls) {
    if (decl.local || decl.kind === 'typeParameter' || decl.kind === 'parameter') continue;
    const def = decl.def;
    const node: OutlineNode = {
      name: decl.name, kind: decl.kind, sym: symbolOf(decl.key),
      range: [def.rangeLine, def.rangeColumn, def.rangeEndLine, def.rangeEndColumn], at: [def.line, def.column], children: [],
    };
    nodes.set(decl, node);
    let parent = decl.parent;
    while (parent && !nodes.has(parent)) parent = parent.parent;
    (parent ? nodes.get(parent)!.children : roots).push(node);
  }
  return roots;
}
