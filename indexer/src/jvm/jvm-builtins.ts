// Names every Java or Kotlin file sees without an import — java.lang's public types, Kotlin's
// default imports (kotlin.*, kotlin.collections.*, …) — read from the library models, and what the
// models cannot say: the primitive types, their boxes, widening, and how Kotlin's built-in types map
// to Java's at run time.
import { JDK_MODEL, KOTLIN_STDLIB_MODEL } from './library/library-model.ts';

/** Kotlin/JVM's default imports, in the order they are searched; java.lang comes after them. */
const KOTLIN_DEFAULT_PACKAGES = ['kotlin', 'kotlin.annotation', 'kotlin.collections', 'kotlin.comparisons', 'kotlin.io', 'kotlin.ranges', 'kotlin.sequences', 'kotlin.text', 'kotlin.jvm'];

export function isKotlinDefaultPackage(pkg: string): boolean {
  return KOTLIN_DEFAULT_PACKAGES.includes(pkg);
}

/** Whether a JDK package declares a top-level type of this name; undefined for a package the model does not have. */
export function jdkPackageDeclares(pkg: string, name: string): boolean | undefined {
  return JDK_MODEL.packageDeclares(pkg, name);
}

export const JAVA_PRIMITIVES: ReadonlySet<string> = new Set(['boolean', 'byte', 'short', 'int', 'long', 'char', 'float', 'double', 'void']);

/** Boxed forms, so a literal `1` is compatible with an `Integer` or a Kotlin `Int` parameter. */
const BOXES: Record<string, string[]> = {
  boolean: ['java.lang.Boolean', 'kotlin.Boolean'], byte: ['java.lang.Byte', 'kotlin.Byte'], short: ['java.lang.Short', 'kotlin.Short'],
  int: ['java.lang.Integer', 'kotlin.Int'], long: ['java.lang.Long', 'kotlin.Long'], char: ['java.lang.Character', 'kotlin.Char'],
  float: ['java.lang.Float', 'kotlin.Float'], double: ['java.lang.Double', 'kotlin.Double'],
};

/** Kotlin built-ins that are Java types at run time (and so the same type to an overload). */
const KOTLIN_TO_JAVA: Record<string, string> = {
  'kotlin.String': 'java.lang.String', 'kotlin.Any': 'java.lang.Object', 'kotlin.CharSequence': 'java.lang.CharSequence',
  'kotlin.Number': 'java.lang.Number', 'kotlin.Comparable': 'java.lang.Comparable', 'kotlin.Throwable': 'java.lang.Throwable',
  'kotlin.Exception': 'java.lang.Exception', 'kotlin.RuntimeException': 'java.lang.RuntimeException', 'kotlin.Enum': 'java.lang.Enum',
  'kotlin.collections.List': 'java.util.List', 'kotlin.collections.MutableList': 'java.util.List',
  'kotlin.collections.Map': 'java.util.Map', 'kotlin.collections.MutableMap': 'java.util.Map',
  'kotlin.collections.Set': 'java.util.Set', 'kotlin.collections.MutableSet': 'java.util.Set',
  'kotlin.collections.Collection': 'java.util.Collection', 'kotlin.collections.Iterable': 'java.lang.Iterable',
  'kotlin.collections.MutableCollection': 'java.util.Collection', 'kotlin.collections.MutableIterable': 'java.lang.Iterable',
  'kotlin.collections.Iterator': 'java.util.Iterator', 'kotlin.collections.MutableIterator': 'java.util.Iterator',
  'kotlin.collections.ListIterator': 'java.util.ListIterator', 'kotlin.collections.MutableListIterator': 'java.util.ListIterator',
  'kotlin.collections.Map.Entry': 'java.util.Map.Entry', 'kotlin.collections.MutableMap.MutableEntry': 'java.util.Map.Entry',
  'kotlin.Annotation': 'java.lang.annotation.Annotation', 'kotlin.Cloneable': 'java.lang.Cloneable', 'kotlin.Error': 'java.lang.Error',
  'kotlin.IllegalArgumentException': 'java.lang.IllegalArgumentException', 'kotlin.IllegalStateException': 'java.lang.IllegalStateException',
  'kotlin.collections.ArrayList': 'java.util.ArrayList', 'kotlin.collections.HashMap': 'java.util.HashMap', 'kotlin.collections.HashSet': 'java.util.HashSet',
  'kotlin.collections.LinkedHashMap': 'java.util.LinkedHashMap', 'kotlin.collections.LinkedHashSet': 'java.util.LinkedHashSet',
  'kotlin.text.StringBuilder': 'java.lang.StringBuilder', 'kotlin.text.Appendable': 'java.lang.Appendable', 'kotlin.Comparator': 'java.util.Comparator',
};

export function javaLangType(name: string): string | undefined {
  return JDK_MODEL.packageDeclares('java.lang', name) ? `java.lang.${name}` : undefined;
}

/**
 * What the compiler builds in and the stdlib's class files (so its model) lack: the mutable
 * collection interfaces (at run time the Java ones), `Nothing`, and the intrinsics of
 * kotlin/Library.kt (`arrayOf`, `intArrayOf`, `enumValues`, …), which no facade class declares.
 */
const KOTLIN_COMPILER_TYPES = new Map<string, string>([
  ...['MutableList', 'MutableMap', 'MutableSet', 'MutableCollection', 'MutableIterable', 'MutableIterator', 'MutableListIterator']
    .map((name): [string, string] => [name, `kotlin.collections.${name}`]),
  ['Nothing', 'kotlin.Nothing'],
]);
const KOTLIN_INTRINSICS = new Set(['arrayOf', 'arrayOfNulls', 'emptyArray', 'enumValues', 'enumValueOf',
  ...['boolean', 'byte', 'char', 'short', 'int', 'long', 'float', 'double'].map((t) => `${t}ArrayOf`)]);

/**
 * A type of Kotlin's default imports by its canonical name. A type alias keeps its Kotlin name
 * (`kotlin.collections.ArrayList`), as Kotlin code spells it; the library types read its members
 * through the type it stands for.
 */
export function kotlinDefaultType(name: string): string | undefined {
  const pkg = KOTLIN_DEFAULT_PACKAGES.find((p) => KOTLIN_STDLIB_MODEL.packageDeclares(p, name));
  return pkg ? `${pkg}.${name}` : KOTLIN_COMPILER_TYPES.get(name) ?? javaLangType(name);
}

/** A top-level function (not an extension) of Kotlin's default imports, by its qualified name. */
export function kotlinDefaultFunction(name: string): string | undefined {
  const pkg = KOTLIN_DEFAULT_PACKAGES.find((p) => KOTLIN_STDLIB_MODEL.topLevel(p, name).some((m) => m.kind === 'method' && !m.receiver));
  return pkg ? `${pkg}.${name}` : KOTLIN_INTRINSICS.has(name) ? `kotlin.${name}` : undefined;
}

/** The name a type has at run time, so Kotlin and Java spellings of one type compare equal. */
export function runtimeName(fqn: string): string {
  return KOTLIN_TO_JAVA[fqn] ?? (/^kotlin\.Function\d+$/.test(fqn) ? `kotlin.jvm.functions.${fqn.slice('kotlin.'.length)}` : fqn);
}

/** The read-only Kotlin type a Java type is seen as from Kotlin (`java.lang.String` → `kotlin.String`). */
const JAVA_TO_KOTLIN = new Map<string, string>();
for (const [kotlin, java] of Object.entries(KOTLIN_TO_JAVA)) if (!JAVA_TO_KOTLIN.has(java) && !/\.Mutable/.test(kotlin)) JAVA_TO_KOTLIN.set(java, kotlin);

export function kotlinViewOf(javaFqn: string): string | undefined {
  return JAVA_TO_KOTLIN.get(javaFqn);
}

/** Kotlin's primitive arrays by the Java primitive of their elements (`IntArray` is `int[]`). */
const PRIMITIVE_ARRAYS: Record<string, string> = {
  'kotlin.BooleanArray': 'boolean', 'kotlin.ByteArray': 'byte', 'kotlin.ShortArray': 'short', 'kotlin.IntArray': 'int',
  'kotlin.LongArray': 'long', 'kotlin.CharArray': 'char', 'kotlin.FloatArray': 'float', 'kotlin.DoubleArray': 'double',
};

export function primitiveArrayElement(fqn: string): string | undefined {
  return PRIMITIVE_ARRAYS[fqn];
}

export function boxesOf(primitive: string): readonly string[] {
  return BOXES[primitive] ?? [];
}

/** Kotlin's primitive-like built-ins by the Java primitive they compile to. */
export function primitiveOfKotlin(fqn: string): string | undefined {
  for (const [primitive, boxes] of Object.entries(BOXES)) if (boxes[1] === fqn) return primitive;
  return undefined;
}

/** Java's boxes by the primitive they hold (`java.lang.Integer` → int). */
export function primitiveOfBox(fqn: string): string | undefined {
  for (const [primitive, boxes] of Object.entries(BOXES)) if (boxes[0] === fqn) return primitive;
  return undefined;
}

/** Java's widening primitive conversions (JLS 5.1.2). */
const WIDENING: Record<string, string[]> = {
  byte: ['short', 'int', 'long', 'float', 'double'], short: ['int', 'long', 'float', 'double'], char: ['int', 'long', 'float', 'double'],
  int: ['long', 'float', 'double'], long: ['float', 'double'], float: ['double'],
};

export function widens(from: string, to: string): boolean {
  return WIDENING[from]?.includes(to) ?? false;
}

/** First segments of package names common enough to read an undeclared qualifier as a package. */
const PACKAGE_ROOTS = new Set(['java', 'javax', 'jdk', 'sun', 'com', 'org', 'net', 'io', 'kotlin', 'kotlinx', 'android', 'androidx', 'dalvik', 'junit']);

export function isPackageRoot(name: string): boolean {
  return PACKAGE_ROOTS.has(name);
}
