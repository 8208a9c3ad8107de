// Qualified names and modifiers in the style users of each language already know: Java
// `com.example.OrderService#submit(String)` (parameter types as written, erased; fields
// `OrderService#repo`; nested types dotted), Kotlin `com.example.OrderService.submit(String)`
// (an extension's receiver in brackets: `retrofit2.await[Call]()`). Kotlin overloads may differ in
// type arguments alone (given distinct @JvmName), so those keep their types as written. The
// identity a symbol key hashes is the qualified name, never the file path: a class keeps its key
// when its file moves.
import { MODIFIERS, type SymbolKind } from '@sextant/format';
import { CALLABLE_KINDS, TYPE_KINDS, type DefEntry, type JvmLanguage } from './file-model.ts';
import { erasedText, parseTypeText, type TypeText } from './type-text.ts';

export interface Naming {
  name: string;
  qname: string;
  /** What the key hashes (with the kind); equals qname except where overloads share a qname. */
  identity: string;
}

export interface NamingContext {
  lang: JvmLanguage;
  pkg: string;
  def: DefEntry;
  parent?: { qname: string; kind: SymbolKind; name: string };
  /** Parameter definitions of a callable, in order. */
  params: DefEntry[];
  /** Name given to an anonymous declaration by the caller. */
  anonymous?: string;
  /** A Kotlin callable whose erased signature another in its scope shares: its types as written. */
  unerased?: boolean;
}

export function nameDeclaration(context: NamingContext): Naming {
  const { lang, pkg, def, parent, params } = context;
  const name = def.name || context.anonymous || '<anonymous>';
  const prefix = pkg ? `${pkg}.` : '';
  if (!parent) {
    const qname = `${prefix}${name}${lang === 'kotlin' && CALLABLE_KINDS.has(def.kind) ? kotlinSignature(def, params, context.unerased) : ''}`;
    return { name, qname, identity: qname };
  }
  if (lang === 'java') {
    if (TYPE_KINDS.has(def.kind) || !TYPE_KINDS.has(parent.kind) && parent.kind !== 'enumMember') {
      const qname = `${parent.qname}.${name}`;
      return { name, qname, identity: qname };
    }
    if (CALLABLE_KINDS.has(def.kind)) {
      const qname = `${parent.qname}#${name}(${params.map((p) => erasedText(p.type ?? '', p.varargs)).join(', ')})`;
      return { name, qname, identity: qname };
    }
    const qname = `${parent.qname}#${name}`;
    return { name, qname, identity: qname };
  }
  const qname = `${parent.qname}.${name}${CALLABLE_KINDS.has(def.kind) ? kotlinSignature(def, params, context.unerased) : ''}`;
  return { name, qname, identity: qname };
}

/** `(String, Int)` plus the receiver of an extension (`[Call]()`), erased unless asked otherwise. */
export function kotlinSignature(def: DefEntry, params: DefEntry[], unerased = false): string {
  const type = (text: string) => (unerased ? text.replace(/\s+/g, '') : kotlinErasure(text));
  return `${def.receiverType ? `[${type(def.receiverType)}]` : ''}(${params.map((p) => `${p.varargs ? 'vararg ' : ''}${type(p.type ?? '')}`).join(', ')})`;
}

/**
 * A Kotlin type as its JVM signature tells it apart: type arguments erased except an Array's
 * (`Array<String>` and `Array<Int>` are different JVM types), no nullability, function types by
 * their parameter and result types (`(Int) -> Unit`).
 */
function kotlinErasure(text: string): string {
  const parsed = parseTypeText(text);
  return parsed ? erasedTypeText(parsed) : erasedText(text);
}

function erasedTypeText(type: TypeText): string {
  let out: string;
  if (type.functional) {
    out = type.params && type.result ? `(${type.params.map(erasedTypeText).join(', ')}) -> ${erasedTypeText(type.result)}` : 'Function';
  } else {
    out = type.segments.join('.');
    if (type.segments[type.segments.length - 1] === 'Array' && type.args.length === 1) out += `<${erasedTypeText(type.args[0]!)}>`;
  }
  return out + '[]'.repeat(type.dims);
}

const JAVA_MODIFIERS: Record<string, number> = {
  public: MODIFIERS.public, private: MODIFIERS.private, protected: MODIFIERS.protected, static: MODIFIERS.static,
  abstract: MODIFIERS.abstract, final: MODIFIERS.readonly, default: MODIFIERS.default,
};
const KOTLIN_MODIFIERS: Record<string, number> = {
  public: MODIFIERS.public, private: MODIFIERS.private, protected: MODIFIERS.protected, abstract: MODIFIERS.abstract,
  suspend: MODIFIERS.async, const: MODIFIERS.readonly, external: MODIFIERS.declare, expect: MODIFIERS.declare,
};

/** Modifier bits of a declaration from its modifier keywords (annotations are skipped). */
export function modifierBits(lang: JvmLanguage, modifiers: string | undefined): number {
  if (!modifiers) return 0;
  const table = lang === 'java' ? JAVA_MODIFIERS : KOTLIN_MODIFIERS;
  let bits = 0;
  const words = modifiers.replace(/@[\w.]+(\s*\((?:[^()]|\([^()]*\))*\))?/g, ' ').split(/\s+/);
  for (const word of words) bits |= table[word] ?? 0;
  return bits;
}

/** Whether the declaration's modifiers include a keyword (`override`, `static`, `companion`, `data`). */
export function hasModifier(modifiers: string | undefined, keyword: string): boolean {
  if (!modifiers) return false;
  return new RegExp(`(^|\\s)${keyword}(\\s|$)`).test(modifiers.replace(/@[\w.]+(\s*\((?:[^()]|\([^()]*\))*\))?/g, ' '));
}

/** Whether the declaration's modifiers carry an annotation (`JvmOverloads`, `JvmStatic`, `JvmField`). */
export function hasAnnotation(modifiers: string | undefined, name: string): boolean {
  return modifiers !== undefined && new RegExp(`@(?:[\\w.]*\\.)?${name}\\b`).test(modifiers);
}
