// Writes the public API of a library as Sextant's library model (JSON; generate.ts gzips it):
//   java LibraryModel.java jdk <out.json> <module> [<module>[/<package>]…]
//       the running JDK's exported packages of those modules, read by reflection over jrt:/
//   java -cp kotlin-stdlib.jar:kotlin-reflect.jar:kotlin-metadata-jvm.jar LibraryModel.java kotlin <out.json> <stdlib.jar> <version>
//       the Kotlin view of the standard library: classes and built-ins through kotlin-reflect
//       (mapped types such as kotlin.collections.List, kotlin.String), top-level functions,
//       extensions, properties and type aliases through kotlin-metadata-jvm's file facades.
// Reflection, not class-file parsing: the JDK answers generic signatures, inherited members of
// non-public superclasses and Kotlin's mapped types itself, and the script stays one small file.
//
// Format (version 1), one object per package, types keyed by their name within the package:
//   { "model", "version", "format": 1, "generator", "packages": { "java.util": {
//       "types": { "Map.Entry": { "k": "i", "tp": ["K", "V"], "su": ["java.lang.Object"], "m": [member…] } },
//       "top": [member…], "aliases": { "ArrayList": "java.util.ArrayList<E>" } } } }
//   k: c class, i interface, e enum, a annotation, r record, o object
//   tp: type parameters, `T:bound&bound`; su: direct supertypes, the superclass first
//   member: "flags|name|typeParams|receiver|params|type", params and type parameters `;`-separated,
//     flags m method, c constructor, f field, p property (w: writable), s static, a abstract, v varargs
//   Types are written as in source with canonical names (`java.util.Map.Entry<K, ? extends V>`,
//   `int[]`, `T`); Kotlin's carry no nullability and function types are `kotlin.Function1<A, R>`.
import java.io.*;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.*;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.jar.*;
import java.util.stream.*;

public class LibraryModel {
  static final int FORMAT = 1;

  /** Package → type name → type record (JSON text of its fields), and top-level members. */
  static final TreeMap<String, TreeMap<String, String>> types = new TreeMap<>();
  static final TreeMap<String, List<String>> top = new TreeMap<>();
  static final TreeMap<String, TreeMap<String, String>> aliases = new TreeMap<>();

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    String out = args[1];
    String version;
    if (mode.equals("jdk")) {
      jdk(Arrays.copyOfRange(args, 2, args.length));
      version = System.getProperty("java.version");
    } else {
      kotlin(args[2]);
      version = args[3];
    }
    StringBuilder json = new StringBuilder();
    json.append("{\"model\":").append(str(mode.equals("jdk") ? "jdk" : "kotlin-stdlib"))
        .append(",\"version\":").append(str(version)).append(",\"format\":").append(FORMAT)
        .append(",\"generator\":").append(str("indexer/scripts/library-model/LibraryModel.java on " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")))
        .append(",\"packages\":{");
    TreeSet<String> pkgs = new TreeSet<>(types.keySet());
    pkgs.addAll(top.keySet());
    pkgs.addAll(aliases.keySet());
    boolean firstPkg = true;
    for (String pkg : pkgs) {
      if (!firstPkg) json.append(',');
      firstPkg = false;
      json.append(str(pkg)).append(":{");
      List<String> parts = new ArrayList<>();
      if (types.containsKey(pkg)) parts.add("\"types\":{" + types.get(pkg).entrySet().stream().map(e -> str(e.getKey()) + ":" + e.getValue()).collect(Collectors.joining(",")) + "}");
      if (top.containsKey(pkg)) parts.add("\"top\":" + strs(top.get(pkg).stream().sorted().distinct().collect(Collectors.toList())));
      if (aliases.containsKey(pkg)) parts.add("\"aliases\":{" + aliases.get(pkg).entrySet().stream().map(e -> str(e.getKey()) + ":" + str(e.getValue())).collect(Collectors.joining(",")) + "}");
      json.append(String.join(",", parts)).append('}');
    }
    json.append("}}\n");
    Files.writeString(Path.of(out), json, StandardCharsets.UTF_8);
    System.err.println(mode + ": " + pkgs.size() + " packages, " + types.values().stream().mapToInt(Map::size).sum() + " types");
  }

  // -----------------------------------------------------------------------------------------------
  // The JDK, by reflection over the exported packages of the named modules

  static void jdk(String[] wanted) throws Exception {
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    for (String spec : wanted) {
      String moduleName = spec.contains("/") ? spec.substring(0, spec.indexOf('/')) : spec;
      String onlyPkg = spec.contains("/") ? spec.substring(spec.indexOf('/') + 1) : null;
      Module module = ModuleLayer.boot().findModule(moduleName).orElseThrow();
      for (ModuleDescriptor.Exports export : module.getDescriptor().exports()) {
        if (export.isQualified()) continue;
        String pkg = export.source();
        if (onlyPkg != null && !onlyPkg.equals(pkg)) continue;
        Path dir = jrt.getPath("/modules", moduleName, pkg.replace('.', '/'));
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
          names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class") && !n.equals("package-info.class") && !n.equals("module-info.class")).sorted().collect(Collectors.toList());
        }
        for (String file : names) {
          Class<?> c = Class.forName(pkg + "." + file.substring(0, file.length() - 6), false, ClassLoader.getPlatformClassLoader());
          if (visibleType(c)) types.computeIfAbsent(pkg, k -> new TreeMap<>()).put(nameInPackage(c), javaType(c));
        }
      }
    }
  }

  /** Public (or protected nested) types reachable from outside their package. */
  static boolean visibleType(Class<?> c) {
    if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) return false;
    for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
      int mods = k.getModifiers();
      if (!Modifier.isPublic(mods) && !(k.getDeclaringClass() != null && Modifier.isProtected(mods))) return false;
    }
    return true;
  }

  static String nameInPackage(Class<?> c) {
    return c.getDeclaringClass() == null ? c.getSimpleName() : nameInPackage(c.getDeclaringClass()) + "." + c.getSimpleName();
  }

  static String javaType(Class<?> c) {
    String kind = c.isAnnotation() ? "a" : c.isInterface() ? "i" : c.isEnum() ? "e" : c.isRecord() ? "r" : "c";
    List<String> supers = new ArrayList<>();
    List<String> members = new ArrayList<>();
    // Public members of non-public superclasses (AbstractStringBuilder's for StringBuilder) belong
    // to the first public class: outside the package nobody can name the hidden one.
    Type superclass = c.getGenericSuperclass();
    List<Class<?>> hidden = new ArrayList<>();
    while (superclass != null && !visibleType(raw(superclass))) {
      Class<?> h = raw(superclass);
      hidden.add(h);
      for (Type i : h.getGenericInterfaces()) supers.add(typeText(i));
      superclass = h.getGenericSuperclass();
    }
    if (superclass != null) supers.add(0, typeText(superclass));
    for (Type i : c.getGenericInterfaces()) if (visibleType(raw(i))) supers.add(typeText(i));
    supers = supers.stream().distinct().collect(Collectors.toList());
    Set<String> seen = new HashSet<>();
    for (Class<?> owner : prepend(c, hidden)) {
      for (Constructor<?> k : owner == c ? c.getDeclaredConstructors() : new Constructor<?>[0]) {
        if (!exposed(k.getModifiers()) || k.isSynthetic()) continue;
        members.add(member("c" + (k.isVarArgs() ? "v" : ""), "<init>", k.getTypeParameters(), k.getGenericParameterTypes(), ""));
      }
      for (Method m : owner.getDeclaredMethods()) {
        if (!exposed(m.getModifiers()) || m.isSynthetic() || m.isBridge()) continue;
        String line = member("m" + (Modifier.isStatic(m.getModifiers()) ? "s" : "") + (Modifier.isAbstract(m.getModifiers()) ? "a" : "") + (m.isVarArgs() ? "v" : ""), m.getName(), m.getTypeParameters(), m.getGenericParameterTypes(), typeText(m.getGenericReturnType()));
        if (seen.add(m.getName() + Arrays.toString(m.getParameterTypes()))) members.add(line);
      }
      for (Field f : owner.getDeclaredFields()) {
        if (!exposed(f.getModifiers()) || f.isSynthetic()) continue;
        if (seen.add(f.getName())) members.add(member("f" + (Modifier.isStatic(f.getModifiers()) ? "s" : ""), f.getName(), new TypeVariable<?>[0], new Type[0], typeText(f.getGenericType())));
      }
    }
    Collections.sort(members);
    return record(kind, typeParams(c.getTypeParameters()), supers, members);
  }

  static List<Class<?>> prepend(Class<?> c, List<Class<?>> rest) {
    List<Class<?>> all = new ArrayList<>();
    all.add(c);
    all.addAll(rest);
    return all;
  }

  static boolean exposed(int mods) {
    return Modifier.isPublic(mods) || Modifier.isProtected(mods);
  }

  static Class<?> raw(Type t) {
    if (t instanceof Class<?> c) return c;
    if (t instanceof ParameterizedType p) return (Class<?>) p.getRawType();
    throw new IllegalArgumentException(t.toString());
  }

  static String member(String flags, String name, TypeVariable<?>[] tps, Type[] params, String type) {
    String ps = Arrays.stream(params).map(LibraryModel::typeText).collect(Collectors.joining(";"));
    return flags + "|" + name + "|" + String.join(";", typeParams(tps)) + "||" + ps + "|" + type;
  }

  static List<String> typeParams(TypeVariable<?>[] tps) {
    List<String> out = new ArrayList<>();
    for (TypeVariable<?> tp : tps) {
      String bounds = Arrays.stream(tp.getBounds()).filter(b -> b != Object.class).map(LibraryModel::typeText).collect(Collectors.joining("&"));
      out.add(bounds.isEmpty() ? tp.getName() : tp.getName() + ":" + bounds);
    }
    return out;
  }

  static String typeText(Type t) {
    if (t instanceof Class<?> c) return c.isArray() ? typeText(c.getComponentType()) + "[]" : canonical(c);
    if (t instanceof ParameterizedType p) {
      String args = Arrays.stream(p.getActualTypeArguments()).map(LibraryModel::typeText).collect(Collectors.joining(","));
      return canonical((Class<?>) p.getRawType()) + "<" + args + ">";
    }
    if (t instanceof TypeVariable<?> v) return v.getName();
    if (t instanceof GenericArrayType g) return typeText(g.getGenericComponentType()) + "[]";
    if (t instanceof WildcardType w) {
      if (w.getLowerBounds().length > 0) return "? super " + typeText(w.getLowerBounds()[0]);
      Type upper = w.getUpperBounds()[0];
      return upper == Object.class ? "?" : "? extends " + typeText(upper);
    }
    throw new IllegalArgumentException(t.toString());
  }

  static String canonical(Class<?> c) {
    String name = c.getCanonicalName();
    return name != null ? name : c.getName().replace('$', '.');
  }

  static String record(String kind, List<String> tps, List<String> supers, List<String> members) {
    StringBuilder b = new StringBuilder("{\"k\":").append(str(kind));
    if (!tps.isEmpty()) b.append(",\"tp\":").append(strs(tps));
    if (!supers.isEmpty()) b.append(",\"su\":").append(strs(supers));
    if (!members.isEmpty()) b.append(",\"m\":").append(strs(members));
    return b.append('}').toString();
  }

  // -----------------------------------------------------------------------------------------------
  // The Kotlin standard library

  static void kotlin(String jarPath) throws Exception {
    ClassLoader loader = LibraryModel.class.getClassLoader();
    Set<String> classes = new TreeSet<>();
    try (JarFile jar = new JarFile(jarPath)) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        String n = entry.getName();
        if (!n.endsWith(".class") || n.startsWith("META-INF") || n.endsWith("module-info.class")) continue;
        String name = n.substring(0, n.length() - 6).replace('/', '.');
        if (name.contains(".internal") || name.contains(".jvm.internal")) continue;
        classes.add(name);
      }
    }
    // Built-in types have no class file of their own: kotlin-reflect knows them by their Java class.
    Class<?>[] builtins = {
      Object.class, String.class, CharSequence.class, Number.class, Comparable.class, Throwable.class, Enum.class,
      java.lang.annotation.Annotation.class, Iterable.class, Collection.class, List.class, Set.class, Map.class, Map.Entry.class,
      Iterator.class, ListIterator.class, Cloneable.class, boolean.class, byte.class, short.class, int.class, long.class,
      char.class, float.class, double.class, Object[].class, boolean[].class, byte[].class, short[].class, int[].class,
      long[].class, char[].class, float[].class, double[].class,
    };
    for (Class<?> c : builtins) kotlinClass(kotlin.jvm.internal.Reflection.getOrCreateKotlinClass(c), c);
    for (String name : classes) {
      Class<?> c;
      try {
        c = Class.forName(name, false, loader);
      } catch (Throwable e) {
        continue;
      }
      kotlin.Metadata metadata = c.getAnnotation(kotlin.Metadata.class);
      if (metadata == null) continue;
      if (metadata.k() == 1) {
        if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic() || !visibleType(c)) continue;
        try {
          kotlinClass(kotlin.jvm.internal.Reflection.getOrCreateKotlinClass(c), c);
        } catch (Throwable e) {
          System.err.println("skipped " + name + ": " + e);
        }
      } else if (metadata.k() == 2 || metadata.k() == 5) {
        kotlin.metadata.jvm.KotlinClassMetadata read = kotlin.metadata.jvm.KotlinClassMetadata.readLenient(metadata);
        kotlin.metadata.KmPackage pkg = read instanceof kotlin.metadata.jvm.KotlinClassMetadata.FileFacade f ? f.getKmPackage()
            : ((kotlin.metadata.jvm.KotlinClassMetadata.MultiFileClassPart) read).getKmPackage();
        facade(c.getPackageName(), pkg);
      }
    }
  }

  static void kotlinClass(kotlin.reflect.KClass<?> k, Class<?> c) {
    String qname = k.getQualifiedName();
    if (qname == null || k.getVisibility() != kotlin.reflect.KVisibility.PUBLIC) return;
    String pkg = c.isPrimitive() || c.isArray() || !qname.startsWith(c.getPackageName()) ? qname.substring(0, qname.lastIndexOf('.', kotlinTopStart(qname))) : c.getPackageName();
    String kind = c.isAnnotation() ? "a" : c.isInterface() ? "i" : c.isEnum() ? "e" : k.isCompanion() || hasInstance(c) ? "o" : "c";
    List<String> tps = new ArrayList<>();
    for (kotlin.reflect.KTypeParameter tp : k.getTypeParameters()) tps.add(kotlinTypeParam(tp));
    List<String> supers = new ArrayList<>();
    for (kotlin.reflect.KType s : k.getSupertypes()) {
      String text = kotlinType(s);
      if (!supers.contains(text)) supers.add(text);
    }
    List<String> members = new ArrayList<>();
    for (kotlin.reflect.KFunction<?> ctor : k.getConstructors()) {
      if (ctor.getVisibility() != kotlin.reflect.KVisibility.PUBLIC && ctor.getVisibility() != kotlin.reflect.KVisibility.PROTECTED) continue;
      members.add(kotlinCallable("c", "<init>", ctor));
    }
    for (kotlin.reflect.KCallable<?> m : k.getMembers()) {
      try {
        if (m.getVisibility() != kotlin.reflect.KVisibility.PUBLIC && m.getVisibility() != kotlin.reflect.KVisibility.PROTECTED) continue;
        String flags = (m instanceof kotlin.reflect.KProperty<?> ? (m instanceof kotlin.reflect.KMutableProperty<?> ? "pw" : "p") : "m") + (m.isAbstract() ? "a" : "");
        members.add(kotlinCallable(flags, m.getName(), m));
      } catch (Throwable e) {
        // A member kotlin-reflect cannot describe (a JVM signature it does not map) is left out.
      }
    }
    members = members.stream().distinct().sorted().collect(Collectors.toList());
    types.computeIfAbsent(pkg, x -> new TreeMap<>()).put(qname.substring(pkg.length() + 1), record(kind, tps, supers, members));
  }

  /** Index in a qualified name where the first capitalised segment starts. */
  static int kotlinTopStart(String qname) {
    int start = 0;
    for (String seg : qname.split("\\.")) {
      if (!seg.isEmpty() && Character.isUpperCase(seg.charAt(0))) return start;
      start += seg.length() + 1;
    }
    return qname.length();
  }

  static boolean hasInstance(Class<?> c) {
    try {
      Field f = c.getDeclaredField("INSTANCE");
      return Modifier.isStatic(f.getModifiers()) && f.getType() == c;
    } catch (NoSuchFieldException e) {
      return false;
    }
  }

  static String kotlinCallable(String flags, String name, kotlin.reflect.KCallable<?> m) {
    String receiver = "";
    List<String> params = new ArrayList<>();
    for (kotlin.reflect.KParameter p : m.getParameters()) {
      switch (p.getKind()) {
        case INSTANCE -> { }
        case EXTENSION_RECEIVER -> receiver = kotlinType(p.getType());
        default -> {
          if (p.isVararg()) {
            if (!flags.contains("v")) flags += "v";
            params.add(kotlinType(p.getType()).replaceFirst("^kotlin\\.Array<(?:out )?(.*)>$", "$1").replaceFirst("^kotlin\\.(Int|Long|Short|Byte|Char|Boolean|Float|Double)Array$", "kotlin.$1") + "[]");
          } else {
            params.add(kotlinType(p.getType()) + (p.isOptional() ? "=" : ""));
          }
        }
      }
    }
    List<String> tps = new ArrayList<>();
    for (kotlin.reflect.KTypeParameter tp : m.getTypeParameters()) tps.add(kotlinTypeParam(tp));
    String type = flags.startsWith("c") ? "" : kotlinType(m.getReturnType());
    return flags + "|" + name + "|" + String.join(";", tps) + "|" + receiver + "|" + String.join(";", params) + "|" + type;
  }

  static String kotlinTypeParam(kotlin.reflect.KTypeParameter tp) {
    String bounds = tp.getUpperBounds().stream().map(LibraryModel::kotlinType).filter(b -> !b.equals("kotlin.Any")).collect(Collectors.joining("&"));
    return bounds.isEmpty() ? tp.getName() : tp.getName() + ":" + bounds;
  }

  static String kotlinType(kotlin.reflect.KType t) {
    Object classifier = t.getClassifier();
    String name;
    if (classifier instanceof kotlin.reflect.KTypeParameter p) return p.getName();
    if (classifier instanceof kotlin.reflect.KClass<?> k) {
      name = k.getQualifiedName();
      // kotlin-reflect gives MutableList's classifier as List; the type's own text keeps the name.
      String shown = t.toString();
      if (name != null && name.startsWith("kotlin.collections.") && shown.startsWith("kotlin.collections.Mutable")) {
        name = shown.replaceFirst("[<!?].*$", "");
      }
    } else {
      name = null;
    }
    if (name == null) name = "kotlin.Any";
    List<String> args = new ArrayList<>();
    for (kotlin.reflect.KTypeProjection a : t.getArguments()) {
      if (a.getType() == null) args.add("*");
      else {
        String variance = a.getVariance() == kotlin.reflect.KVariance.OUT ? "out " : a.getVariance() == kotlin.reflect.KVariance.IN ? "in " : "";
        args.add(variance + kotlinType(a.getType()));
      }
    }
    return args.isEmpty() ? name : name + "<" + String.join(",", args) + ">";
  }

  /** A file facade's (or multi-file part's) public top-level functions, properties and type aliases. */
  static void facade(String pkg, kotlin.metadata.KmPackage km) {
    for (kotlin.metadata.KmFunction f : km.getFunctions()) {
      if (kotlin.metadata.Attributes.getVisibility(f) != kotlin.metadata.Visibility.PUBLIC) continue;
      Map<Integer, String> names = new HashMap<>();
      for (kotlin.metadata.KmTypeParameter tp : f.getTypeParameters()) names.put(tp.getId(), tp.getName());
      String flags = "m";
      List<String> params = new ArrayList<>();
      for (kotlin.metadata.KmValueParameter p : f.getValueParameters()) {
        if (p.getVarargElementType() != null) {
          flags = "mv";
          params.add(kmType(p.getVarargElementType(), names) + "[]");
        } else {
          params.add(kmType(p.getType(), names) + (kotlin.metadata.Attributes.getDeclaresDefaultValue(p) ? "=" : ""));
        }
      }
      String receiver = f.getReceiverParameterType() == null ? "" : kmType(f.getReceiverParameterType(), names);
      top.computeIfAbsent(pkg, x -> new ArrayList<>()).add(flags + "|" + f.getName() + "|" + kmTypeParams(f.getTypeParameters(), names) + "|" + receiver + "|" + String.join(";", params) + "|" + kmType(f.getReturnType(), names));
    }
    for (kotlin.metadata.KmProperty p : km.getProperties()) {
      if (kotlin.metadata.Attributes.getVisibility(p) != kotlin.metadata.Visibility.PUBLIC) continue;
      Map<Integer, String> names = new HashMap<>();
      for (kotlin.metadata.KmTypeParameter tp : p.getTypeParameters()) names.put(tp.getId(), tp.getName());
      String receiver = p.getReceiverParameterType() == null ? "" : kmType(p.getReceiverParameterType(), names);
      String flags = kotlin.metadata.Attributes.isVar(p) ? "pw" : "p";
      top.computeIfAbsent(pkg, x -> new ArrayList<>()).add(flags + "|" + p.getName() + "|" + kmTypeParams(p.getTypeParameters(), names) + "|" + receiver + "||" + kmType(p.getReturnType(), names));
    }
    for (kotlin.metadata.KmTypeAlias a : km.getTypeAliases()) {
      if (kotlin.metadata.Attributes.getVisibility(a) != kotlin.metadata.Visibility.PUBLIC) continue;
      Map<Integer, String> names = new HashMap<>();
      for (kotlin.metadata.KmTypeParameter tp : a.getTypeParameters()) names.put(tp.getId(), tp.getName());
      aliases.computeIfAbsent(pkg, x -> new TreeMap<>()).put(a.getName(), kmType(a.getExpandedType(), names));
    }
  }

  static String kmTypeParams(List<kotlin.metadata.KmTypeParameter> tps, Map<Integer, String> names) {
    List<String> out = new ArrayList<>();
    for (kotlin.metadata.KmTypeParameter tp : tps) {
      String bounds = tp.getUpperBounds().stream().map(b -> kmType(b, names)).filter(b -> !b.equals("kotlin.Any")).collect(Collectors.joining("&"));
      out.add(bounds.isEmpty() ? tp.getName() : tp.getName() + ":" + bounds);
    }
    return String.join(";", out);
  }

  static String kmType(kotlin.metadata.KmType t, Map<Integer, String> names) {
    kotlin.metadata.KmClassifier c = t.getClassifier();
    String name;
    if (c instanceof kotlin.metadata.KmClassifier.TypeParameter p) return names.getOrDefault(p.getId(), "kotlin.Any");
    else if (c instanceof kotlin.metadata.KmClassifier.Class k) name = k.getName();
    else name = ((kotlin.metadata.KmClassifier.TypeAlias) c).getName();
    // Metadata class names are `kotlin/collections/Map.Entry`: slashes between packages, dots between nested classes.
    name = name.replace('/', '.');
    List<String> args = new ArrayList<>();
    for (kotlin.metadata.KmTypeProjection a : t.getArguments()) {
      if (a.getType() == null) args.add("*");
      else {
        String variance = a.getVariance() == kotlin.metadata.KmVariance.OUT ? "out " : a.getVariance() == kotlin.metadata.KmVariance.IN ? "in " : "";
        args.add(variance + kmType(a.getType(), names));
      }
    }
    return args.isEmpty() ? name : name + "<" + String.join(",", args) + ">";
  }

  // -----------------------------------------------------------------------------------------------
  // JSON

  static String str(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') b.append('\\').append(ch);
      else if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
      else b.append(ch);
    }
    return b.append('"').toString();
  }

  static String strs(List<String> list) {
    return "[" + list.stream().map(LibraryModel::str).collect(Collectors.joining(",")) + "]";
  }
}
