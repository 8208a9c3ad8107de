// The small per-language resolvers of the tags indexer: which of a name's same-named declarations a
// use can mean, read from the file's imports and the use's qualifier, where the language makes that
// cheap (Python's modules are files, Go's packages are directories). A rule only narrows: when it
// would leave nothing (a module outside the repository, a name re-exported through a package's
// __init__), every same-named declaration stays a candidate. Languages without a rule match by name.
import type { TagFile, TagImport, TagRef } from './tags-extractor.ts';
import type { TagsLanguage } from './tags-grammars.ts';

/** What a rule reads of a candidate declaration: its file, and its container's key (none at the top). */
export interface Candidate {
  path: string;
  container?: string;
}

export interface FileScope {
  /** A use of a module or package the file imports, by the name it is bound to: no declaration's use. */
  namesModule(ref: TagRef): boolean;
  /**
   * Whether a use that names no declaration of the repository names what the language itself
   * provides (a builtin, a predeclared identifier, a program a script runs): no unresolved identifier.
   */
  provided?(ref: TagRef): boolean;
  /** The declared name the use means (an import alias stands for the name imported), and which declarations of it it can be. */
  lookup(ref: TagRef): { name: string; keep?: (candidate: Candidate) => boolean };
}

export type ScopeRule = (path: string, tags: TagFile) => FileScope;

export const SCOPE_RULES: Partial<Record<TagsLanguage, ScopeRule>> = { python: pythonScope, go: goScope, bash: bashScope };

/** Python 3.11's builtins module, and the names every module and method has. */
const PYTHON_BUILTINS: ReadonlySet<string> = new Set([
  'ArithmeticError', 'AssertionError', 'AttributeError', 'BaseException', 'BaseExceptionGroup',
  'BlockingIOError', 'BrokenPipeError', 'BufferError', 'BytesWarning', 'ChildProcessError',
  'ConnectionAbortedError', 'ConnectionError', 'ConnectionRefusedError', 'ConnectionResetError',
  'DeprecationWarning', 'EOFError', 'Ellipsis', 'EncodingWarning', 'EnvironmentError', 'Exception',
  'ExceptionGroup', 'False', 'FileExistsError', 'FileNotFoundError', 'FloatingPointError',
  'FutureWarning', 'GeneratorExit', 'IOError', 'ImportError', 'ImportWarning', 'IndentationError',
  'IndexError', 'InterruptedError', 'IsADirectoryError', 'KeyError', 'KeyboardInterrupt',
  'LookupError', 'MemoryError', 'ModuleNotFoundError', 'NameError', 'None', 'NotADirectoryError',
  'NotImplemented', 'NotImplementedError', 'OSError', 'OverflowError', 'PendingDeprecationWarning',
  'PermissionError', 'ProcessLookupError', 'RecursionError', 'ReferenceError', 'ResourceWarning',
  'RuntimeError', 'RuntimeWarning', 'StopAsyncIteration', 'StopIteration', 'SyntaxError',
  'SyntaxWarning', 'SystemError', 'SystemExit', 'TabError', 'TimeoutError', 'True', 'TypeError',
  'UnboundLocalError', 'UnicodeDecodeError', 'UnicodeEncodeError', 'UnicodeError',
  'UnicodeTranslateError', 'UnicodeWarning', 'UserWarning', 'ValueError', 'Warning',
  'ZeroDivisionError', 'abs', 'aiter', 'all', 'anext', 'any', 'ascii', 'bin', 'bool', 'breakpoint',
  'bytearray', 'bytes', 'callable', 'chr', 'classmethod', 'compile', 'complex', 'copyright',
  'credits', 'delattr', 'dict', 'dir', 'divmod', 'enumerate', 'eval', 'exec', 'exit', 'filter',
  'float', 'format', 'frozenset', 'getattr', 'globals', 'hasattr', 'hash', 'help', 'hex', 'id',
  'input', 'int', 'isinstance', 'issubclass', 'iter', 'len', 'license', 'list', 'locals', 'map',
  'max', 'memoryview', 'min', 'next', 'object', 'oct', 'open', 'ord', 'pow', 'print', 'property',
  'quit', 'range', 'repr', 'reversed', 'round', 'set', 'setattr', 'slice', 'sorted',
  'staticmethod', 'str', 'sum', 'super', 'tuple', 'type', 'vars', 'zip', '__name__', '__file__',
  '__doc__', '__all__', '__package__', '__spec__', '__dict__', '__class__', 'self', 'cls',
]);

/** Go's predeclared identifiers (the universe block). */
const GO_PREDECLARED: ReadonlySet<string> = new Set([
  'bool', 'byte', 'complex64', 'complex128', 'error', 'float32', 'float64', 'int', 'int8', 'int16',
  'int32', 'int64', 'rune', 'string', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr',
  'any', 'comparable', 'true', 'false', 'iota', 'nil', 'append', 'cap', 'clear', 'close',
  'complex', 'copy', 'delete', 'imag', 'len', 'make', 'max', 'min', 'new', 'panic', 'print',
  'println', 'real', 'recover',
]);

const topLevel = (candidate: Candidate) => candidate.container === undefined;

function directoryOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}

/**
 * Python: a bare name is the file's own when it declares it at the top, else what an import binds
 * it to; a name looked up on an imported module is that module's. Modules are files (`a/b.py`) or
 * packages (`a/b/__init__.py`), found wherever the source root is (`src/a/b.py`).
 */
function pythonScope(path: string, tags: TagFile): FileScope {
  const own = new Set(tags.defs.filter((d) => d.parent < 0).map((d) => d.name));
  // `import a.b` binds `a` (to the package a); `import a.b as c` binds c to a.b; `from m import n as a` binds a to m's n.
  const modules = new Map<string, string>();
  const names = new Map<string, TagImport & { name: string }>();
  for (const binding of tags.imports) {
    if (binding.name !== undefined) names.set(binding.alias ?? binding.name, binding as TagImport & { name: string });
    else modules.set(binding.alias ?? binding.module.split('.')[0]!, binding.alias ? binding.module : binding.module.split('.')[0]!);
  }
  const inModule = (module: string) => {
    const files = pythonModuleFiles(module, path);
    return (candidate: Candidate) => topLevel(candidate) && files.some((f) => (f.relative ? candidate.path === f.path : candidate.path === f.path || candidate.path.endsWith(`/${f.path}`)));
  };
  return {
    namesModule: (ref) => ref.qualifier === undefined && ref.kind !== 'import' && modules.has(ref.name) && !own.has(ref.name),
    provided: (ref) => ref.qualifier === undefined && PYTHON_BUILTINS.has(ref.name),
    lookup(ref) {
      if (ref.kind === 'import') return ref.qualifier !== undefined ? { name: ref.name, keep: inModule(ref.qualifier) } : { name: ref.name };
      if (ref.qualifier === undefined) {
        if (own.has(ref.name)) return { name: ref.name, keep: (c) => c.path === path };
        const binding = names.get(ref.name);
        return binding ? { name: binding.name, keep: inModule(binding.module) } : { name: ref.name };
      }
      // `cart.total` after `from shop import cart` names the submodule shop.cart (if it is one).
      const [head, ...rest] = ref.qualifier.split('.');
      const named = names.get(head!);
      const module = modules.get(head!) ?? (named ? `${named.module}.${named.name}` : undefined);
      return module !== undefined ? { name: ref.name, keep: inModule([module, ...rest].join('.')) } : { name: ref.name };
    },
  };
}

/** The files a module path can be: relative ones (`.x`, `..x`) against the importing file's package. */
function pythonModuleFiles(module: string, from: string): { path: string; relative: boolean }[] {
  const dots = /^\.*/.exec(module)![0].length;
  const rest = module.slice(dots).split('.').filter(Boolean).join('/');
  let base: string;
  if (dots > 0) {
    let dir = directoryOf(from);
    for (let i = 1; i < dots; i++) dir = directoryOf(dir);
    base = [dir, rest].filter(Boolean).join('/');
  } else {
    base = rest;
  }
  if (!base) return [];
  return [`${base}.py`, `${base}.pyi`, `${base}/__init__.py`, `${base}/__init__.pyi`].map((p) => ({ path: p, relative: dots > 0 }));
}

/**
 * Go: a bare name is its package's (the file's directory) when the package declares it; a name
 * qualified by an imported package's name is that package's, a directory whose path ends the import
 * path (`example.com/tools/cart` is `tools/cart/` or `cart/`).
 */
function goScope(path: string, tags: TagFile): FileScope {
  const packages = new Map<string, string>();
  for (const binding of tags.imports) packages.set(binding.alias ?? binding.module.slice(binding.module.lastIndexOf('/') + 1), binding.module);
  const directory = directoryOf(path);
  return {
    namesModule: (ref) => ref.qualifier === undefined && packages.has(ref.name),
    provided: (ref) => ref.qualifier === undefined && GO_PREDECLARED.has(ref.name),
    lookup(ref) {
      if (ref.qualifier === undefined) return { name: ref.name, keep: (c) => directoryOf(c.path) === directory };
      const imported = packages.get(ref.qualifier);
      if (imported === undefined) return { name: ref.name };
      return { name: ref.name, keep: (c) => topLevel(c) && importsDirectory(imported, directoryOf(c.path)) };
    },
  };
}

function importsDirectory(importPath: string, directory: string): boolean {
  return directory !== '' && (importPath === directory || importPath.endsWith(`/${directory}`) || directory.endsWith(`/${importPath}`));
}

/** Bash: a command no function of the repository declares is a program (or a builtin), not an unresolved name. */
function bashScope(): FileScope {
  return {
    namesModule: () => false,
    provided: (ref) => ref.kind === 'call',
    lookup: (ref) => ({ name: ref.name }),
  };
}
