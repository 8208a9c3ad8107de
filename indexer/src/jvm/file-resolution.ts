// The per-file resolver: its memo tables, its scope walks and the dispatch of each reference, by
// its role, to the module whose question it is (type-names.ts, value-names.ts, calls.ts).
import { TYPE_KINDS, type RefEntry } from './file-model.ts';
import type { JType } from './jvm-types.ts';
import type { LanguageRules } from './language-rules.ts';
import { declsByScope, type Decl, type FileDecls, type SymbolTable } from './symbol-table.ts';
import { parseTypeText } from './type-text.ts';
import { call, constructorCall, creation, methodReference, withSuperConstructor } from './calls.ts';
import { computeExprType, exprResolution, lambdaParameterAt, lambdaParameters } from './expression-types.ts';
import { TYPE_MEMBER_KINDS, UNRESOLVED, type Resolution, type TypeNameResult } from './resolution.ts';
import type { JvmResolver } from './resolver.ts';
import { computeTypeName, qualifier, resolveParsedType, typeReference } from './type-names.ts';
import { value } from './value-names.ts';

/**
 * Resolution of one file's references, memoised: receivers and initialisers are resolved on
 * demand, so the order references appear in does not matter.
 */
export class FileResolution {
  private readonly results: (Resolution | undefined)[];
  private readonly exprTypes = new Map<number, JType | null>();
  private readonly typeNames = new Map<string, TypeNameResult>();
  readonly rules: LanguageRules;
  readonly table: SymbolTable;

  constructor(readonly resolver: JvmResolver, readonly fd: FileDecls) {
    this.results = new Array(fd.file.refs.length);
    this.rules = resolver.rulesOf(fd);
    this.table = resolver.table;
  }

  resolve(index: number): Resolution {
    let result = this.results[index];
    if (!result) {
      this.results[index] = UNRESOLVED; // receivers never loop back, but broken code may
      result = this.compute(this.fd.file.refs[index]!, index);
      this.results[index] = result;
    }
    return result;
  }

  typeOfExpr(index: number): JType | undefined {
    if (index < 0) return undefined;
    if (this.exprTypes.has(index)) return this.exprTypes.get(index) ?? undefined;
    this.exprTypes.set(index, null);
    const type = computeExprType(this, this.fd.file.exprs[index]!);
    this.exprTypes.set(index, type ?? null);
    return type;
  }

  /**
   * The type of a lambda's parameter without a written type: the matching parameter of the
   * functional interface method the lambda implements, its target being the parameter of the call
   * it is passed to or the variable it initialises (JLS 15.27.3).
   */
  lambdaParameterType(param: Decl): JType | undefined {
    return lambdaParameterAt(this, param.def.scope, lambdaParameters(this, param.def.scope).indexOf(param));
  }

  private sites?: { byScope: Map<number, number>; arguments: Map<number, { ref: number; position: number }>; variables: Map<number, Decl> };

  /** Where the file's lambdas are: by their scope, as arguments of calls, as initialisers of variables. */
  lambdaSites(): NonNullable<FileResolution['sites']> {
    if (this.sites) return this.sites;
    const { exprs, refs } = this.fd.file;
    const sites: NonNullable<FileResolution['sites']> = { byScope: new Map(), arguments: new Map(), variables: new Map() };
    exprs.forEach((expr, index) => {
      if (expr.form === 'lambda') sites.byScope.set(expr.scope, index);
    });
    if (sites.byScope.size > 0) {
      refs.forEach((ref, index) => ref.args?.forEach((arg, position) => {
        if (exprs[arg]?.form === 'lambda') sites.arguments.set(arg, { ref: index, position });
      }));
      for (const decl of this.fd.decls) {
        const value = decl.def.value;
        if (value !== undefined && value >= 0 && exprs[value]?.form === 'lambda' && decl.def.type) sites.variables.set(value, decl);
      }
    }
    return (this.sites = sites);
  }

  /** The innermost class-like declaration whose scope contains `scope`. */
  enclosingType(scope: number): Decl | undefined {
    for (let s = scope; s >= 0; s = this.fd.file.scopes[s]!.parent) {
      const def = this.fd.file.scopes[s]!.def;
      if (def >= 0 && TYPE_KINDS.has(this.fd.decls[def]!.kind)) return this.fd.decls[def];
    }
    return undefined;
  }

  declared(scope: number, name: string): Decl[] | undefined {
    return this.byScope.get(scope)?.get(name);
  }

  private scopeIndex?: Map<number, Map<string, Decl[]>>;

  /** The file's declarations by scope and name (declsByScope), while this file's resolution is kept. */
  get byScope(): Map<number, Map<string, Decl[]>> {
    return (this.scopeIndex ??= declsByScope(this.fd));
  }

  resolveTypeText(text: string, scope: number, resolvingSupersOf?: Decl): JType | undefined {
    const parsed = parseTypeText(text);
    return parsed && resolveParsedType(this, parsed, scope, resolvingSupersOf);
  }

  /** A nested type of a type (declared or inherited). */
  memberType(type: JType, name: string): JType | undefined {
    if (type.t === 'ext') return { t: 'ext', fqn: `${type.fqn}.${name}`, args: [] };
    const found = this.resolver.members(type, name, TYPE_MEMBER_KINDS).found[0];
    if (found) return { t: 'decl', decl: found.decl, args: [] };
    const ext = this.resolver.members(type, name, TYPE_MEMBER_KINDS).ext;
    return ext ? { t: 'ext', fqn: `${ext}.${name}`, args: [] } : undefined;
  }

  /**
   * A simple type name in a scope: type parameters and local classes, member types of enclosing
   * classes (and their supertypes), then imports, the file's package, wildcard imports and the
   * language's implicit imports. `header` is the class whose supertypes are being resolved: its own
   * inherited member types are not in scope there (and asking for them would loop).
   */
  typeName(name: string, scope: number, header?: Decl): TypeNameResult {
    const memo = `${scope}|${name}|${header?.id ?? ''}`;
    let result = this.typeNames.get(memo);
    if (!result) {
      result = computeTypeName(this, name, scope, header);
      this.typeNames.set(memo, result);
    }
    return result;
  }

  private compute(ref: RefEntry, index: number): Resolution {
    const header = ref.header ? this.fd.decls[ref.owner] : undefined;
    if (header && TYPE_KINDS.has(header.kind) && header.def.ownScope >= 0) {
      // In a class's header only its type parameters are added to the scope around the class.
      const outside = { ...ref, header: false, scope: this.fd.file.scopes[header.def.ownScope]!.parent };
      // A superclass named with a constructor call (`: Base(…)`) also calls the constructor.
      return ref.role === 'type' || ref.role === 'inherit' || ref.role === 'decorator' ? withSuperConstructor(this, ref, typeReference(this, outside, header)) : this.compute(outside, index);
    }
    switch (ref.role) {
      case 'type':
      case 'inherit':
      case 'decorator':
        return withSuperConstructor(this, ref, typeReference(this, ref));
      case 'qualifier':
      case 'import':
        return qualifier(this, ref);
      case 'read':
      case 'write':
        return value(this, ref, index);
      case 'call':
        return call(this, ref);
      case 'new':
        return creation(this, ref);
      case 'methodref':
        return methodReference(this, ref);
      case 'constructor':
        return constructorCall(this, ref);
    }
  }

  receiverOf(ref: RefEntry): Resolution | undefined {
    return ref.receiver >= 0 ? exprResolution(this, ref.receiver) : undefined;
  }

  /** Whether some other reference of the file uses this one's node as its receiver. */
  private qualifierRefs?: Set<number>;

  isQualifier(index: number): boolean {
    if (!this.qualifierRefs) {
      this.qualifierRefs = new Set();
      for (const other of this.fd.file.refs) {
        const expr = other.receiver >= 0 ? this.fd.file.exprs[other.receiver] : undefined;
        if (expr?.form === 'ref') this.qualifierRefs.add(expr.ref);
      }
    }
    return this.qualifierRefs.has(index);
  }

  ownerOfScope(scope: number): Decl | undefined {
    const def = this.fd.file.scopes[scope]!.def;
    const decl = def >= 0 ? this.fd.decls[def] : undefined;
    return decl && TYPE_KINDS.has(decl.kind) ? decl : undefined;
  }
}
