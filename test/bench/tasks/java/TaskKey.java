// Answer keys for the task benchmark's Java tasks, from javac's attributed trees (JavacTask over
// the corpus sources, java.base patched from them): no Sextant code. Compiled and run at bench time
// by java-answer-key.ts with the system javac 17.
//
//   java TaskKey <repository root> <module dir, e.g. java.base> <tasks file> <answers file>
//
// Tasks file: one task per line, `id TAB kind TAB name TAB path TAB line TAB column` (1-based,
// columns in chars). Answers file: `id TAB item` per item, `id TAB !message` when a task failed.
// Items are those of task-types.ts: callers `path:line`, implementations `path#Name` (an anonymous
// class `path#Outer$1`), callees
// `name@path`, overload and definition `path:line`, rename-files `path`.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
import java.util.stream.*;
import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.lang.model.util.*;
import javax.tools.*;

public class TaskKey {
  static Path root;
  static Trees trees;
  static Elements elements;
  static Types types;
  static final Map<String, CompilationUnitTree> units = new TreeMap<>();

  public static void main(String[] args) throws Exception {
    root = Paths.get(args[0]).toAbsolutePath().normalize();
    Path module = root.resolve(args[1]);
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(module)) {
      sources = walk.filter(p -> p.toString().endsWith(".java") && !p.getFileName().toString().equals("module-info.java")).sorted().collect(Collectors.toList());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager files = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    List<String> options = List.of("--patch-module", args[1] + "=" + module, "-proc:none", "-implicit:none", "-nowarn", "-Xmaxerrs", "1", "-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW");
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources));
    for (CompilationUnitTree unit : task.parse()) units.put(rel(unit), unit);
    task.analyze();
    trees = Trees.instance(task);
    elements = task.getElements();
    types = task.getTypes();
    long errors = diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).count();
    System.err.println("javac attributed " + units.size() + " files, " + errors + " errors");

    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(Paths.get(args[2]))) {
      if (line.isBlank()) continue;
      String[] f = line.split("\t");
      try {
        for (String item : answer(f[1], f[2], f[3], Integer.parseInt(f[4]), Integer.parseInt(f[5]))) out.add(f[0] + "\t" + item);
      } catch (RuntimeException e) {
        out.add(f[0] + "\t!" + e);
      }
    }
    Files.write(Paths.get(args[3]), out);
  }

  static String rel(CompilationUnitTree unit) {
    return root.relativize(Paths.get(unit.getSourceFile().toUri()).normalize()).toString();
  }

  static long offset(CompilationUnitTree unit, int line, int column) {
    return unit.getLineMap().getStartPosition(line) + column - 1;
  }

  static int lineOf(CompilationUnitTree unit, long pos) {
    return (int) unit.getLineMap().getLineNumber(pos);
  }

  static CharSequence text(CompilationUnitTree unit) {
    try {
      return unit.getSourceFile().getCharContent(true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where a tree's name starts: a member select's name, an identifier, or the first occurrence of the declared name after the modifiers. */
  static long nameStart(CompilationUnitTree unit, Tree tree) {
    SourcePositions pos = trees.getSourcePositions();
    if (tree instanceof MemberSelectTree) return pos.getEndPosition(unit, tree) - ((MemberSelectTree) tree).getIdentifier().length();
    if (tree instanceof IdentifierTree) return pos.getStartPosition(unit, tree);
    String name;
    long from = pos.getStartPosition(unit, tree);
    if (tree instanceof ClassTree) {
      name = ((ClassTree) tree).getSimpleName().toString();
      from = Math.max(from, pos.getEndPosition(unit, ((ClassTree) tree).getModifiers()));
    } else if (tree instanceof MethodTree) {
      MethodTree m = (MethodTree) tree;
      name = m.getName().contentEquals("<init>") ? enclosingClassName(unit, tree) : m.getName().toString();
      from = Math.max(from, pos.getEndPosition(unit, m.getModifiers()));
      if (m.getReturnType() != null) from = Math.max(from, pos.getEndPosition(unit, m.getReturnType()));
    } else if (tree instanceof VariableTree) {
      VariableTree v = (VariableTree) tree;
      name = v.getName().toString();
      if (v.getType() != null) from = Math.max(from, pos.getEndPosition(unit, v.getType()));
    } else return from;
    Matcher m = Pattern.compile("(?<![\\w$])" + Pattern.quote(name) + "(?![\\w$])").matcher(text(unit));
    return m.find((int) Math.max(0, from)) ? m.start() : from;
  }

  static String enclosingClassName(CompilationUnitTree unit, Tree tree) {
    TreePath path = trees.getPath(unit, tree);
    for (TreePath p = path; p != null; p = p.getParentPath()) if (p.getLeaf() instanceof ClassTree) return ((ClassTree) p.getLeaf()).getSimpleName().toString();
    return "";
  }

  /** The element named at (line, column): a declaration's name or a use. */
  static Element elementAt(CompilationUnitTree unit, int line, int column) {
    long target = offset(unit, line, column);
    Element[] found = new Element[1];
    new TreePathScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void p) {
        if (tree == null || found[0] != null) return null;
        SourcePositions pos = trees.getSourcePositions();
        long start = pos.getStartPosition(unit, tree);
        long end = pos.getEndPosition(unit, tree);
        if (start > target || (end >= 0 && end <= target)) return null;
        return super.scan(tree, p);
      }

      void check(Tree tree, String name) {
        if (found[0] != null) return;
        long start = nameStart(unit, tree);
        if (start <= target && target < start + name.length()) found[0] = trees.getElement(getCurrentPath());
      }

      @Override
      public Void visitIdentifier(IdentifierTree node, Void p) {
        check(node, node.getName().toString());
        return super.visitIdentifier(node, p);
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void p) {
        super.visitMemberSelect(node, p);
        check(node, node.getIdentifier().toString());
        return null;
      }

      @Override
      public Void visitMethod(MethodTree node, Void p) {
        check(node, node.getName().contentEquals("<init>") ? enclosingClassName(unit, node) : node.getName().toString());
        return super.visitMethod(node, p);
      }

      @Override
      public Void visitClass(ClassTree node, Void p) {
        check(node, node.getSimpleName().toString());
        return super.visitClass(node, p);
      }

      @Override
      public Void visitVariable(VariableTree node, Void p) {
        check(node, node.getName().toString());
        return super.visitVariable(node, p);
      }
    }.scan(new TreePath(unit), null);
    if (found[0] == null) throw new IllegalArgumentException("no element at " + rel(unit) + ":" + line + ":" + column);
    return found[0];
  }

  /** A method and the methods it overrides or implements (calls through those reach it). */
  static Set<Element> withOverridden(ExecutableElement method) {
    Set<Element> out = new HashSet<>(List.of(method));
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    Deque<TypeMirror> queue = new ArrayDeque<>(types.directSupertypes(owner.asType()));
    while (!queue.isEmpty()) {
      TypeMirror t = queue.pop();
      Element e = types.asElement(t);
      if (!(e instanceof TypeElement)) continue;
      for (Element member : e.getEnclosedElements()) {
        if (member instanceof ExecutableElement && member.getSimpleName().equals(method.getSimpleName()) && elements.overrides(method, (ExecutableElement) member, owner)) out.add(member);
      }
      queue.addAll(types.directSupertypes(t));
    }
    return out;
  }

  /** Where an element is declared, as `path:line` of its name. */
  static String declarationOf(Element element) {
    TreePath path = trees.getPath(element);
    if (path == null) return null;
    CompilationUnitTree unit = path.getCompilationUnit();
    return rel(unit) + ":" + lineOf(unit, nameStart(unit, path.getLeaf()));
  }

  static String fileOf(Element element) {
    TreePath path = trees.getPath(element);
    return path == null ? null : rel(path.getCompilationUnit());
  }

  static String simpleName(Element e) {
    return e.getKind() == ElementKind.CONSTRUCTOR ? e.getEnclosingElement().getSimpleName().toString() : e.getSimpleName().toString();
  }

  static Set<String> answer(String kind, String name, String file, int line, int column) {
    CompilationUnitTree home = units.get(file);
    if (home == null) throw new IllegalArgumentException("no compilation unit " + file);
    Element target = elementAt(home, line, column);
    if (!target.getSimpleName().contentEquals(name) && !(target.getKind() == ElementKind.CONSTRUCTOR && simpleName(target).equals(name))) {
      throw new IllegalArgumentException(file + ":" + line + ":" + column + " names " + target + ", not " + name);
    }
    Set<String> items = new TreeSet<>();
    switch (kind) {
      case "callers": {
        Set<Element> related = target instanceof ExecutableElement ? withOverridden((ExecutableElement) target) : Set.of(target);
        for (CompilationUnitTree unit : units.values()) {
          new TreePathScanner<Void, Void>() {
            @Override
            public Void visitMethodInvocation(MethodInvocationTree node, Void p) {
              Element called = trees.getElement(new TreePath(getCurrentPath(), node.getMethodSelect()));
              if (called != null && related.contains(called)) items.add(rel(unit) + ":" + lineOf(unit, nameStart(unit, node.getMethodSelect())));
              return super.visitMethodInvocation(node, p);
            }
          }.scan(unit, null);
        }
        break;
      }
      case "callees": {
        TreePath path = trees.getPath(target);
        new TreePathScanner<Void, Void>() {
          void add(Element called) {
            if (called == null) return;
            String where = fileOf(called);
            if (where != null) items.add(simpleName(called) + "@" + where);
          }

          @Override
          public Void visitMethodInvocation(MethodInvocationTree node, Void p) {
            add(trees.getElement(new TreePath(getCurrentPath(), node.getMethodSelect())));
            return super.visitMethodInvocation(node, p);
          }

          @Override
          public Void visitNewClass(NewClassTree node, Void p) {
            add(trees.getElement(getCurrentPath()));
            return super.visitNewClass(node, p);
          }
        }.scan(path, null);
        break;
      }
      case "implementations": {
        TypeMirror erased = types.erasure(target.asType());
        for (CompilationUnitTree unit : units.values()) {
          new TreePathScanner<Void, Void>() {
            @Override
            public Void visitClass(ClassTree node, Void p) {
              Element e = trees.getElement(getCurrentPath());
              if (e instanceof TypeElement && !e.equals(target)
                  && (e.getKind() == ElementKind.CLASS || e.getKind() == ElementKind.ENUM || e.getKind() == ElementKind.RECORD)
                  && types.isSubtype(types.erasure(e.asType()), erased)) {
                // An anonymous class is named by its binary name (`Outer$1`), as class files name it.
                String binary = elements.getBinaryName((TypeElement) e).toString();
                String name = node.getSimpleName().isEmpty() ? binary.substring(binary.lastIndexOf('.') + 1) : node.getSimpleName().toString();
                items.add(rel(unit) + "#" + name);
              }
              return super.visitClass(node, p);
            }
          }.scan(unit, null);
        }
        break;
      }
      case "overload":
      case "definition": {
        String where = declarationOf(target);
        if (where != null) items.add(where);
        break;
      }
      case "rename-files": {
        Set<Element> related = new HashSet<>(List.of(target));
        if (target instanceof ExecutableElement) related.addAll(withOverridden((ExecutableElement) target));
        String declared = fileOf(target);
        if (declared != null) items.add(declared);
        for (CompilationUnitTree unit : units.values()) {
          new TreePathScanner<Void, Void>() {
            void check(Element e) {
              if (e == null) return;
              if (related.contains(e) || (e instanceof ExecutableElement && target instanceof ExecutableElement && overridesAny((ExecutableElement) e, related))) items.add(rel(unit));
            }

            @Override
            public Void visitIdentifier(IdentifierTree node, Void p) {
              check(trees.getElement(getCurrentPath()));
              return null;
            }

            @Override
            public Void visitMemberSelect(MemberSelectTree node, Void p) {
              check(trees.getElement(getCurrentPath()));
              return super.visitMemberSelect(node, p);
            }

            @Override
            public Void visitMemberReference(MemberReferenceTree node, Void p) {
              check(trees.getElement(getCurrentPath()));
              return super.visitMemberReference(node, p);
            }

            @Override
            public Void visitMethod(MethodTree node, Void p) {
              check(trees.getElement(getCurrentPath()));
              return super.visitMethod(node, p);
            }
          }.scan(unit, null);
        }
        break;
      }
      default:
        throw new IllegalArgumentException("kind " + kind + " has no Java key");
    }
    return items;
  }

  /** Whether `method` overrides one of `related` (a subclass's override is renamed with them). */
  static boolean overridesAny(ExecutableElement method, Set<Element> related) {
    if (!(method.getEnclosingElement() instanceof TypeElement)) return false;
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    for (Element r : related) {
      if (r instanceof ExecutableElement && r.getSimpleName().equals(method.getSimpleName()) && elements.overrides(method, (ExecutableElement) r, owner)) return true;
    }
    return false;
  }
}
