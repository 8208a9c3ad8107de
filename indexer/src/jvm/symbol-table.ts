// Every Java and Kotlin declaration of the repository, named and keyed, with the indexes resolution
// looks things up in: types by qualified name, package contents, members by type, members by name.
// Both languages share one package namespace, so Java finds Kotlin classes and the other way round.
import { localSymbolKey, symbolKey, type SymbolKind } from '@sextant/format';
import type { BuildLayout } from './build-layout.ts';
import { CALLABLE_KINDS, TYPE_KINDS, type DefEntry, type FileModel } from './file-model.ts';
import { hasModifier, kotlinSignature, modifierBits, nameDeclaration } from './jvm-naming.ts';

export interface Decl {
  id: number;
  file: FileModel;
  def: DefEntry;
  defIndex: number;
  name: string;
  kind: SymbolKind;
  qname: string;
  key: string;
  parent?: Decl;
  local: boolean;
  mods: number;
  /** Canonical name of a non-local type (`com.example.Outer.Inner`), the name imports use. */
  fqn?: string;
  /** Direct members of a type by name (constructors under `<init>`). */
  members?: Map<string, Decl[]>;
  typeParams?: Decl[];
  /** A Kotlin class's companion object. */
  companion?: Decl;
  /** Parameters of a callable, in order. */
  params?: Decl[];
}

export interface FileDecls {
  file: FileModel;
  decls: Decl[];
  module: string;
}

/**
 * A file's declarations by declaring scope and name (locals, parameters, type parameters, members),
 * in declaration order. Built for a file while it is resolved (file-resolution.ts) rather than kept
 * for every file: on java.base these maps were a sixth of the symbol table's memory, and only the
 * file being resolved, and those it asks about, look names up by scope.
 */
export function declsByScope(fd: FileDecls): Map<number, Map<string, Decl[]>> {
  const byScope = new Map<number, Map<string, Decl[]>>();
  for (const decl of fd.decls) {
    if (decl.def.scope < 0 && decl.parent) continue;
    const scoped = byScope.get(decl.def.scope) ?? byScope.set(decl.def.scope, new Map()).get(decl.def.scope)!;
    (scoped.get(decl.name) ?? scoped.set(decl.name, []).get(decl.name)!).push(decl);
  }
  return byScope;
}

export const CONSTRUCTOR = '<init>';

export class SymbolTable {
  readonly files: FileDecls[] = [];
  readonly decls: Decl[] = [];
  /** Non-local types by canonical name; several when modules declare the same class. */
  readonly types = new Map<string, Decl[]>();
  /** Top-level declarations (types, Kotlin functions, properties, type aliases) by package, then name. */
  readonly packages = new Map<string, Map<string, Decl[]>>();
  /** Every package name and each of its prefixes, so `com.example` is known as a package. */
  readonly packageNames = new Set<string>();
  /** Non-local members by simple name: the fallback when a receiver's type is unknown. */
  readonly membersByName = new Map<string, Decl[]>();
  /** Kotlin extension functions and properties by name. */
  readonly extensions = new Map<string, Decl[]>();

  constructor(models: FileModel[], readonly layout: BuildLayout) {
    const pending: { decl: Decl; identity: string; local: boolean }[] = [];
    for (const file of models) {
      const fileDecls: FileDecls = { file, decls: [], module: layout.moduleOf(file.path) };
      this.files.push(fileDecls);
      const params = new Map<number, number[]>();
      const scopeOwner = new Map<number, number>();
      file.defs.forEach((def, i) => {
        if (def.ownScope >= 0) scopeOwner.set(def.ownScope, i);
      });
      // Parameters of callables, and of classes: Kotlin primary constructors, Java record components.
      file.defs.forEach((def, i) => {
        if (def.kind !== 'parameter' && def.nodeType !== 'class_parameter' && !(def.kind === 'field' && def.nodeType === 'formal_parameter')) return;
        const owner = def.scope >= 0 ? scopeOwner.get(def.scope) : undefined;
        if (owner !== undefined) (params.get(owner) ?? params.set(owner, []).get(owner)!).push(i);
      });
      const unerased = file.lang === 'kotlin' ? clashingSignatures(file, params) : undefined;
      const anonymousCount = new Map<Decl | undefined, number>();
      file.defs.forEach((def, defIndex) => {
        const parent = def.parent >= 0 ? fileDecls.decls[def.parent] : undefined;
        let anonymous: string | undefined;
        if (!def.name) {
          if (def.nodeType === 'companion_object') anonymous = 'Companion';
          else {
            let named = parent;
            while (named && !TYPE_KINDS.has(named.kind)) named = named.parent;
            const n = (anonymousCount.get(named) ?? 0) + 1;
            anonymousCount.set(named, n);
            anonymous = `${named?.name ?? file.path.replace(/^.*\//, '').replace(/\.\w+$/, '')}$${n}`;
          }
        }
        const naming = nameDeclaration({
          lang: file.lang, pkg: file.pkg, def, params: (params.get(defIndex) ?? []).map((i) => file.defs[i]!), anonymous, unerased: unerased?.has(defIndex),
          parent: parent && { qname: parent.qname, kind: parent.kind, name: parent.name },
        });
        const decl: Decl = {
          id: this.decls.length, file, def, defIndex, name: naming.name, kind: def.kind, qname: naming.qname, key: '',
          parent, local: def.local, mods: modifierBits(file.lang, def.modifiers),
        };
        fileDecls.decls.push(decl);
        this.decls.push(decl);
        pending.push({ decl, identity: naming.identity, local: def.local });
      });
      for (const decl of fileDecls.decls) this.link(decl, fileDecls, params);
    }
    this.assignKeys(pending);
  }

  private link(decl: Decl, fileDecls: FileDecls, params: Map<number, number[]>): void {
    const { def, file } = decl;
    if (CALLABLE_KINDS.has(decl.kind) || TYPE_KINDS.has(decl.kind)) {
      const own = params.get(decl.defIndex);
      if (own) decl.params = own.map((i) => fileDecls.decls[i]!);
    }
    if (TYPE_KINDS.has(decl.kind)) decl.members = new Map();
    const parent = decl.parent;
    if (decl.kind === 'typeParameter') {
      const owner = parent && (TYPE_KINDS.has(parent.kind) || CALLABLE_KINDS.has(parent.kind)) ? parent : undefined;
      if (owner) (owner.typeParams ??= []).push(decl);
      return;
    }
    if (parent?.members && decl.kind !== 'local' && decl.kind !== 'parameter') {
      const name = decl.kind === 'constructor' ? CONSTRUCTOR : decl.name;
      (parent.members.get(name) ?? parent.members.set(name, []).get(name)!).push(decl);
      if (def.nodeType === 'companion_object') parent.companion = decl;
    }
    if (decl.local) return;
    if (TYPE_KINDS.has(decl.kind)) {
      decl.fqn = parent ? `${parent.fqn ?? parent.qname}.${decl.name}` : file.pkg ? `${file.pkg}.${decl.name}` : decl.name;
      if (!parent || parent.fqn) (this.types.get(decl.fqn) ?? this.types.set(decl.fqn, []).get(decl.fqn)!).push(decl);
    }
    if (!parent) {
      this.addPackage(file.pkg);
      const members = this.packages.get(file.pkg)!;
      (members.get(decl.name) ?? members.set(decl.name, []).get(decl.name)!).push(decl);
      if (def.receiverType) (this.extensions.get(decl.name) ?? this.extensions.set(decl.name, []).get(decl.name)!).push(decl);
    } else if (!TYPE_KINDS.has(decl.kind) && decl.kind !== 'constructor') {
      (this.membersByName.get(decl.name) ?? this.membersByName.set(decl.name, []).get(decl.name)!).push(decl);
      if (def.receiverType) (this.extensions.get(decl.name) ?? this.extensions.set(decl.name, []).get(decl.name)!).push(decl);
    }
  }

  private addPackage(pkg: string): void {
    if (!this.packages.has(pkg)) this.packages.set(pkg, new Map());
    for (let p = pkg; p && !this.packageNames.has(p); p = p.slice(0, Math.max(0, p.lastIndexOf('.')))) this.packageNames.add(p);
  }

  /**
   * Keys hash `jvm|<identity>|<kind>`. An identity declared by several files (the same class in two
   * modules) gets its path too; locals are keyed by path, with an ordinal where a file repeats one.
   */
  private assignKeys(pending: { decl: Decl; identity: string; local: boolean }[]): void {
    const files = new Map<string, Set<string>>();
    for (const { decl, identity, local } of pending) {
      if (local) continue;
      const base = `${identity}|${decl.kind}`;
      (files.get(base) ?? files.set(base, new Set()).get(base)!).add(decl.file.path);
    }
    const seen = new Map<string, number>();
    for (const { decl, identity, local } of pending) {
      let base = local ? `jvm-local|${decl.file.path}|${decl.qname}|${decl.kind}` : `jvm|${identity}|${decl.kind}`;
      if (!local && files.get(`${identity}|${decl.kind}`)!.size > 1) base = `${base}|${decl.file.path}`;
      const ordinal = seen.get(base) ?? 0;
      seen.set(base, ordinal + 1);
      const unique = ordinal === 0 ? base : `${base}|#${ordinal}`;
      decl.key = local ? localSymbolKey(decl.file.path, unique) : symbolKey(unique);
    }
  }

  /** Types with this canonical name, those of the asking module (then its dependencies) first. */
  typesNamed(fqn: string, module: string): Decl[] {
    const found = this.types.get(fqn);
    if (!found || found.length < 2) return found ?? [];
    return this.layout.prefer(found, module, (d) => d.file.path);
  }

  isOverride(decl: Decl): boolean {
    return hasModifier(decl.def.modifiers, 'override') || /@Override\b/.test(decl.def.modifiers ?? '');
  }
}

/** Kotlin callables of a file whose erased signature another in the same scope shares (overloads told apart by @JvmName). */
function clashingSignatures(file: FileModel, params: Map<number, number[]>): Set<number> {
  const bySignature = new Map<string, number[]>();
  file.defs.forEach((def, i) => {
    if (!CALLABLE_KINDS.has(def.kind) || def.local) return;
    const signature = `${def.parent}|${def.name}|${kotlinSignature(def, (params.get(i) ?? []).map((p) => file.defs[p]!))}`;
    (bySignature.get(signature) ?? bySignature.set(signature, []).get(signature)!).push(i);
  });
  return new Set([...bySignature.values()].filter((defs) => defs.length > 1).flat());
}
