// The Java references oracle of the JVM accuracy bench (jvm-accuracy.ts): javac's attributed trees
// (JavacTask parse + analyze over every Java file of a corpus, through the compiler API), no
// Sextant code. Compiled and run at bench time with the system javac 17 by java-oracle.ts.
//
//   java JavacReferences <repository root> <file list> <output file> [<module name>]
//
// The file list holds one repository-relative path a line. With a module name (java.base) the
// files are compiled as that module's patch (--patch-module), as the JDK itself is built;
// without, as one unnamed-module compilation with nothing on the class path: what the corpus
// needs from elsewhere (the Android SDK) stays unresolved, and only what javac resolves to a
// declaration in these files is written. A call whose arguments include one javac could not type
// (a class of the missing SDK) has its overload chosen blindly: where the method has overloads,
// that call is written as unresolved (U), as javac judges nothing there.
//
// Output, tab-separated, 1-based lines and columns in UTF-16 code units (javac's chars):
//   D  id  kind  name  path  line  column   a declaration (type, method, constructor, field, enum
//                                           constant), at its name
//   R  id  path  line  column               a reference to declaration `id`, at the name used
//   U  path  line  column                   a name javac attributes to nothing (or to an unknown
//                                           type): a missing library, where it judges nothing
// A reference is every identifier, member select, member reference, `new` and `this(…)`/`super(…)`
// that javac attributes to a declared element: `new Foo()` names the class Foo and the
// constructor, both at `Foo`. Trees javac synthesises (a default constructor, the implicit
// `super()`) have no text of their own at their position and are left out.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
import javax.lang.model.element.*;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.*;
import javax.tools.*;

public class JavacReferences {
  static Path root;
  static Trees trees;
  static Elements elements;
  static final Map<Element, Integer> ids = new HashMap<>();
  static final Map<CompilationUnitTree, String> paths = new IdentityHashMap<>();
  static final Map<CompilationUnitTree, CharSequence> texts = new IdentityHashMap<>();
  static PrintWriter out;
  static long references;

  public static void main(String[] args) throws Exception {
    root = Paths.get(args[0]).toAbsolutePath().normalize();
    List<Path> sources = new ArrayList<>();
    for (String line : Files.readAllLines(Paths.get(args[1]))) if (!line.isBlank()) sources.add(root.resolve(line));
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager files = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    List<String> options = new ArrayList<>(List.of("-proc:none", "-implicit:none", "-nowarn", "-Xmaxerrs", "1000000",
        // Attribute every file even when some do not compile (missing libraries): references javac
        // cannot resolve are simply not written.
        "-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW"));
    if (args.length > 3) options.addAll(List.of("--patch-module", args[3] + "=" + root.resolve(args[3])));
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources));
    List<CompilationUnitTree> units = new ArrayList<>();
    for (CompilationUnitTree unit : task.parse()) {
      units.add(unit);
      paths.put(unit, root.relativize(Paths.get(unit.getSourceFile().toUri()).normalize()).toString());
      texts.put(unit, unit.getSourceFile().getCharContent(true));
    }
    task.analyze();
    trees = Trees.instance(task);
    elements = task.getElements();
    long errors = diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).count();
    try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(Paths.get(args[2]), StandardCharsets.UTF_8))) {
      out = writer;
      for (CompilationUnitTree unit : units) declarations(unit);
      for (CompilationUnitTree unit : units) references(unit);
    }
    System.err.println("javac attributed " + units.size() + " files (" + errors + " errors): " + ids.size() + " declarations, " + references + " references to them");
  }

  static boolean declarable(Element e) {
    if (e == null || elements.getOrigin(e) != Elements.Origin.EXPLICIT) return false;
    switch (e.getKind()) {
      case CLASS: case INTERFACE: case ENUM: case ANNOTATION_TYPE: case RECORD:
        return !((TypeElement) e).getNestingKind().equals(NestingKind.ANONYMOUS);
      case METHOD: case CONSTRUCTOR: case FIELD: case ENUM_CONSTANT:
        return true;
      default:
        return false;
    }
  }

  /** Whether the text at `offset` is `name` as a whole word: false for a tree javac made up. */
  static boolean namedAt(CompilationUnitTree unit, long offset, String name) {
    CharSequence text = texts.get(unit);
    int end = (int) offset + name.length();
    if (offset < 0 || end > text.length() || !text.subSequence((int) offset, end).toString().equals(name)) return false;
    return end == text.length() || !Character.isJavaIdentifierPart(text.charAt(end));
  }

  static String position(CompilationUnitTree unit, long offset) {
    LineMap lines = unit.getLineMap();
    long line = lines.getLineNumber(offset);
    // Not getColumnNumber: it expands tabs to 8 columns.
    return paths.get(unit) + "\t" + line + "\t" + (offset - lines.getStartPosition(line) + 1);
  }

  /** The offset of a declaration's name: javac's preferred position when the name is there, else its first occurrence after it. */
  static long declarationName(CompilationUnitTree unit, Tree tree, String name) {
    long pos = ((JCTree) tree).pos;
    if (namedAt(unit, pos, name)) return pos;
    Matcher m = Pattern.compile("(?<![\\w$])" + Pattern.quote(name) + "(?![\\w$])").matcher(texts.get(unit));
    return m.find((int) Math.max(0, pos)) ? m.start() : -1;
  }

  static void declarations(CompilationUnitTree unit) {
    new TreePathScanner<Void, Void>() {
      void declare(Tree tree, String name) {
        Element e = trees.getElement(getCurrentPath());
        if (!declarable(e) || ids.containsKey(e)) return;
        long at = declarationName(unit, tree, name);
        if (at < 0) return;
        int id = ids.size();
        ids.put(e, id);
        out.println("D\t" + id + "\t" + e.getKind().toString().toLowerCase(Locale.ROOT) + "\t" + name + "\t" + position(unit, at));
      }

      @Override
      public Void visitClass(ClassTree node, Void p) {
        if (!node.getSimpleName().isEmpty()) declare(node, node.getSimpleName().toString());
        return super.visitClass(node, p);
      }

      @Override
      public Void visitMethod(MethodTree node, Void p) {
        String name = node.getName().contentEquals("<init>") ? enclosingClass(getCurrentPath()) : node.getName().toString();
        if (name != null) declare(node, name);
        return super.visitMethod(node, p);
      }

      @Override
      public Void visitVariable(VariableTree node, Void p) {
        declare(node, node.getName().toString());
        return super.visitVariable(node, p);
      }
    }.scan(unit, null);
  }

  static String enclosingClass(TreePath path) {
    for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
      if (p.getLeaf() instanceof ClassTree) return ((ClassTree) p.getLeaf()).getSimpleName().toString();
    }
    return null;
  }

  /** A record's accessor that the source leaves implicit is declared by its component: the field of the same name. */
  static Element declared(Element e) {
    if (e.getKind() == ElementKind.METHOD && e.getEnclosingElement().getKind() == ElementKind.RECORD && !ids.containsKey(e)) {
      for (Element member : e.getEnclosingElement().getEnclosedElements()) {
        if (member.getKind() == ElementKind.FIELD && member.getSimpleName().equals(e.getSimpleName())) return member;
      }
    }
    return e;
  }

  static void references(CompilationUnitTree unit) {
    SourcePositions positions = trees.getSourcePositions();
    new TreePathScanner<Void, Void>() {
      /** `call` (a method invocation or creation) passes an argument javac could not type to an overloaded `e`. */
      boolean blindOverload(Element e, TreePath call, List<? extends ExpressionTree> args) {
        if (e == null || (e.getKind() != ElementKind.METHOD && e.getKind() != ElementKind.CONSTRUCTOR)) return false;
        boolean untyped = false;
        for (ExpressionTree arg : args) {
          TypeMirror type = trees.getTypeMirror(new TreePath(call, arg));
          if (type == null || type.getKind() == TypeKind.ERROR) untyped = true;
        }
        if (!untyped) return false;
        int overloads = 0;
        for (Element member : e.getEnclosingElement().getEnclosedElements()) {
          if (member.getKind() == e.getKind() && member.getSimpleName().equals(e.getSimpleName())) overloads++;
        }
        return overloads > 1;
      }

      /** The element a method's name calls, or null when the call is an overload javac chose blindly. */
      Element called(Element e) {
        TreePath parent = getCurrentPath().getParentPath();
        if (parent != null && parent.getLeaf() instanceof MethodInvocationTree
            && ((MethodInvocationTree) parent.getLeaf()).getMethodSelect() == getCurrentPath().getLeaf()
            && blindOverload(e, parent, ((MethodInvocationTree) parent.getLeaf()).getArguments())) return null;
        return e;
      }

      void reference(Element e, long at, String name) {
        if ((e == null || e.asType().getKind() == TypeKind.ERROR) && namedAt(unit, at, name)) {
          out.println("U\t" + position(unit, at));
          return;
        }
        Integer id = e == null ? null : ids.get(declared(e));
        if (id == null || !namedAt(unit, at, name)) return;
        out.println("R\t" + id + "\t" + position(unit, at));
        references++;
      }

      @Override
      public Void visitIdentifier(IdentifierTree node, Void p) {
        Element e = called(trees.getElement(getCurrentPath()));
        reference(e, positions.getStartPosition(unit, node), node.getName().toString());
        return super.visitIdentifier(node, p);
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void p) {
        super.visitMemberSelect(node, p);
        String name = node.getIdentifier().toString();
        reference(called(trees.getElement(getCurrentPath())), positions.getEndPosition(unit, node) - name.length(), name);
        return null;
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree node, Void p) {
        super.visitMemberReference(node, p);
        String name = node.getMode() == MemberReferenceTree.ReferenceMode.NEW ? "new" : node.getName().toString();
        reference(trees.getElement(getCurrentPath()), positions.getEndPosition(unit, node) - name.length(), name);
        return null;
      }

      @Override
      public Void visitNewClass(NewClassTree node, Void p) {
        // The constructor, at the class's name (`new a.Foo<T>()` at `Foo`); an anonymous class's
        // constructor is javac's own and has no declaration.
        Tree type = node.getIdentifier();
        if (type instanceof ParameterizedTypeTree) type = ((ParameterizedTypeTree) type).getType();
        if (type instanceof AnnotatedTypeTree) type = ((AnnotatedTypeTree) type).getUnderlyingType();
        if (node.getClassBody() == null && (type instanceof IdentifierTree || type instanceof MemberSelectTree)) {
          String name = type instanceof IdentifierTree ? ((IdentifierTree) type).getName().toString() : ((MemberSelectTree) type).getIdentifier().toString();
          long at = type instanceof IdentifierTree ? positions.getStartPosition(unit, type) : positions.getEndPosition(unit, type) - name.length();
          Element constructor = trees.getElement(getCurrentPath());
          reference(blindOverload(constructor, getCurrentPath(), node.getArguments()) ? null : constructor, at, name);
        }
        return super.visitNewClass(node, p);
      }
    }.scan(unit, null);
  }
}
