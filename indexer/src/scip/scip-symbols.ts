// What a SCIP symbol is in Sextant's terms: its key, kind, name, qualified name, container,
// signature and doc, from the symbol string (scip-symbol.ts) and its SymbolInformation.
import { localSymbolKey, symbolKey, type SymbolKind } from '@sextant/format';
import { SymbolInformation_Kind as Kind, type SymbolInformation } from './scip_pb.ts';
import { isSourceName, lastDescriptor, parseScipSymbol, withoutVersion, type Descriptor, type ScipSymbol } from './scip-symbol.ts';

/**
 * Stable across commits: the SCIP symbol string is the identity, without the package version for a
 * symbol the repository defines (its version is the indexer's name for this commit). A `local N`
 * is one document's.
 */
export function scipKey(symbol: string, path: string, defined: boolean): string {
  if (symbol.startsWith('local ')) return localSymbolKey(path, `scip-local|${path}|${symbol}`);
  return symbolKey(`scip|${defined ? withoutVersion(symbol) : symbol}`);
}

/** SymbolInformation.Kind to Sextant's kinds; a kind not listed falls back to the descriptor's. */
const KINDS: Partial<Record<Kind, SymbolKind>> = {
  [Kind.Class]: 'class', [Kind.Struct]: 'class', [Kind.Object]: 'class', [Kind.SingletonClass]: 'class', [Kind.Message]: 'class',
  [Kind.Contract]: 'class', [Kind.Union]: 'class', [Kind.Mixin]: 'class', [Kind.Extension]: 'class',
  [Kind.Interface]: 'interface', [Kind.Protocol]: 'interface', [Kind.Trait]: 'interface', [Kind.TypeClass]: 'interface', [Kind.Concept]: 'interface',
  [Kind.Enum]: 'enum', [Kind.EnumMember]: 'enumMember',
  [Kind.Type]: 'type', [Kind.TypeAlias]: 'type', [Kind.AssociatedType]: 'type', [Kind.TypeFamily]: 'type', [Kind.DataFamily]: 'type', [Kind.Delegate]: 'type',
  [Kind.Function]: 'function', [Kind.Macro]: 'function',
  [Kind.Method]: 'method', [Kind.AbstractMethod]: 'method', [Kind.StaticMethod]: 'method', [Kind.ProtocolMethod]: 'method',
  [Kind.PureVirtualMethod]: 'method', [Kind.TraitMethod]: 'method', [Kind.TypeClassMethod]: 'method', [Kind.MethodSpecification]: 'method',
  [Kind.SingletonMethod]: 'method', [Kind.MethodAlias]: 'method', [Kind.Subscript]: 'method',
  [Kind.Constructor]: 'constructor', [Kind.Getter]: 'getter', [Kind.Setter]: 'setter',
  [Kind.Property]: 'property', [Kind.StaticProperty]: 'property', [Kind.Accessor]: 'property', [Kind.Event]: 'property', [Kind.StaticEvent]: 'property',
  [Kind.Field]: 'field', [Kind.StaticField]: 'field', [Kind.StaticDataMember]: 'field',
  [Kind.Variable]: 'variable', [Kind.StaticVariable]: 'variable', [Kind.Value]: 'variable', [Kind.Constant]: 'constant',
  [Kind.Namespace]: 'namespace', [Kind.Package]: 'namespace', [Kind.PackageObject]: 'namespace', [Kind.Module]: 'module', [Kind.File]: 'module',
  [Kind.TypeParameter]: 'typeParameter',
  [Kind.Parameter]: 'parameter', [Kind.SelfParameter]: 'parameter', [Kind.ThisParameter]: 'parameter', [Kind.MethodReceiver]: 'parameter', [Kind.ParameterLabel]: 'parameter',
};

export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'type', 'enum']);
export const CALLABLE_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method', 'constructor', 'getter', 'setter']);
/** Kinds searched by no one, as Sextant's own indexers make parameters and type parameters locals. */
const LOCAL_KINDS: ReadonlySet<SymbolKind> = new Set(['parameter', 'typeParameter', 'local']);

/** Languages whose members of a type are fields rather than properties. */
const FIELD_LANGUAGES = new Set(['java', 'go', 'rust', 'c', 'cpp']);
/** A name that is a source file's (`shapes.ts`): the descriptors up to it spell a path, not a qualified name. */
const SOURCE_FILE = /\.(d\.ts|[cm]?[jt]sx?|py|pyi|go|rs|java|kt|kts|rb|php|c|h|cc|cpp|cxx|hh|hpp|cs|swift|scala|sh)$/;
/** `(method) area(): number` and the like: scip-typescript's signatures begin with what the symbol is. */
const SIGNATURE_KINDS: Record<string, SymbolKind> = { interface: 'interface', class: 'class', enum: 'enum', type: 'type' };

export interface ScipSymbolFacts {
  parsed: ScipSymbol | undefined;
  name: string;
  kind: SymbolKind;
  qname: string;
  local: boolean;
  signature?: string;
  doc?: string;
}

/**
 * A symbol's facts. `lang` picks property or field for a member; `sourceName` is its definition's
 * text: the name of a `local N`, which has none of its own, and of a symbol whose descriptor
 * stands for it under another spelling (`<get>value`, `next0`).
 */
export function symbolFacts(symbol: string, info: SymbolInformation | undefined, lang: string, sourceName?: string): ScipSymbolFacts {
  const parsed = parseScipSymbol(symbol);
  const { signature, doc } = documentationOf(info);
  const kind = (info && KINDS[info.kind]) ?? (parsed ? descriptorKind(parsed, lang, signature) : 'local');
  const last = parsed && lastDescriptor(parsed);
  const module = parsed && pythonModule(parsed);
  if (module !== undefined) {
    // scip-python's module: `` `rich.console`/__init__: `` is rich.console, named console.
    return { parsed, name: module.slice(module.lastIndexOf('.') + 1), kind: 'module', qname: module, local: false, ...(doc !== undefined ? { doc } : {}) };
  }
  const name = info?.displayName || (last ? (sourceName !== undefined && isSourceName(last.name, sourceName) ? sourceName : displayName(last)) : sourceName ?? symbol);
  return {
    parsed, name, kind, qname: parsed?.local ? name : qualifiedName(parsed, name),
    local: parsed === undefined || parsed.local || LOCAL_KINDS.has(kind),
    ...(signature !== undefined ? { signature } : {}),
    ...(doc !== undefined ? { doc } : {}),
  };
}

/** The dotted name of a scip-python module symbol (a namespace, then the meta `__init__:`), else undefined. */
export function pythonModule(symbol: ScipSymbol): string | undefined {
  const [module, init] = symbol.descriptors;
  return symbol.descriptors.length === 2 && module!.suffix === 'namespace' && init!.suffix === 'meta' && init!.name === '__init__' ? module!.name : undefined;
}

function displayName(descriptor: Descriptor): string {
  // scip-typescript's accessors `<get>x` and `<constructor>`, scip-java's `<init>`.
  return /^<(?:get|set)>(.+)$/.exec(descriptor.name)?.[1] ?? /^<(.*)>$/.exec(descriptor.name)?.[1] ?? descriptor.name;
}

/**
 * The kind the last descriptor implies: `#` a type (an interface, enum or alias when the
 * signature says so), `().` a method of a type or else a function, `.` a property or field of a
 * type or else a variable, `/` a module when it names a source file or else a namespace, `:` a
 * module, `(x)` a parameter, `[T]` a type parameter, `!` a macro (a function).
 */
function descriptorKind(symbol: ScipSymbol, lang: string, signature: string | undefined): SymbolKind {
  if (symbol.local) return 'local';
  const last = lastDescriptor(symbol)!;
  const parent = symbol.descriptors[symbol.descriptors.length - 2];
  switch (last.suffix) {
    case 'type': {
      const word = signature ? /^(?:export\s+|declare\s+|abstract\s+|const\s+)*(\w+)\s/.exec(signature)?.[1] : undefined;
      return (word !== undefined ? SIGNATURE_KINDS[word] : undefined) ?? 'class';
    }
    case 'method':
      if (/^<(constructor|init)>$/.test(last.name)) return 'constructor';
      return parent?.suffix === 'type' ? 'method' : 'function';
    case 'term':
      return parent?.suffix === 'type' ? (FIELD_LANGUAGES.has(lang) ? 'field' : 'property') : 'variable';
    case 'namespace':
      return SOURCE_FILE.test(last.name) ? 'module' : 'namespace';
    case 'meta':
      return 'module';
    case 'parameter':
      return 'parameter';
    case 'typeParameter':
      return 'typeParameter';
    case 'macro':
      return 'function';
  }
}

/**
 * The descriptors' names joined with '.', without the package, and without the namespaces that
 * name its module: those up to a source file's name (scip-typescript's `src/`shapes.ts`/Square#area().`
 * is `Square.area`), else the leading ones (scip-python's `` `shop.cart`/Cart#add(). `` is
 * `Cart.add`, scip-go's `` `example.com/x/cart`/Cart#Add(). `` is `Cart.Add`): a Sextant qualified
 * name is the name inside its module. A module itself keeps its path.
 */
function qualifiedName(symbol: ScipSymbol | undefined, name: string): string {
  if (!symbol) return name;
  const names = symbol.descriptors.map(displayName);
  let file = -1;
  symbol.descriptors.forEach((d, i) => {
    if (d.suffix === 'namespace' && SOURCE_FILE.test(d.name)) file = i;
  });
  if (file < 0) file = symbol.descriptors.findIndex((d) => d.suffix !== 'namespace') - 1;
  names[names.length - 1] = name;
  if (file < -1 || file === names.length - 1) return names.join('/');
  return names.slice(file + 1).join('.');
}

/**
 * The signature (signature_documentation's text, else the first fenced code block of the
 * documentation, as scip-typescript writes it) and the doc (the rest of the documentation).
 */
function documentationOf(info: SymbolInformation | undefined): { signature?: string; doc?: string } {
  if (!info) return {};
  let signature = info.signatureDocumentation?.text || undefined;
  const docs: string[] = [];
  for (const part of info.documentation) {
    const fenced = /^\s*```[^\n]*\n([\s\S]*?)\n?```\s*$/.exec(part);
    if (fenced && signature === undefined) signature = fenced[1]!.trim();
    else if (!(fenced && fenced[1]!.trim() === signature)) docs.push(part.trim());
  }
  const doc = docs.filter(Boolean).join('\n\n');
  return { ...(signature ? { signature } : {}), ...(doc ? { doc } : {}) };
}
