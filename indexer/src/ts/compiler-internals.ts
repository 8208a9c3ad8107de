// The few functions of the TypeScript compiler that its public typings leave out but its language
// service relies on, typed in one place. Each is used the way services/ uses it, so an index answers
// as an editor does; the compiler is pinned through ts-morph, and the unit tests exercise each one.
import { ts } from 'ts-morph';

/** types.ts AssignmentDeclarationKind: which JavaScript assignment declares a symbol. */
export const AssignmentDeclarationKind = {
  None: 0, ExportsProperty: 1, ModuleExports: 2, PrototypeProperty: 3, ThisProperty: 4, Property: 5, Prototype: 6,
} as const;
export type AssignmentDeclarationKind = number;

interface Internals {
  /** utilities.ts: which JavaScript assignment (`exports.x =`, `this.x =`, `A.prototype.m =`) declares a symbol. */
  getAssignmentDeclarationKind(expression: ts.BinaryExpression | ts.CallExpression): AssignmentDeclarationKind;
  /** What ts.sys.readDirectory runs, over any file system entries. */
  matchFiles(
    path: string, extensions: readonly string[] | undefined, excludes: readonly string[] | undefined,
    includes: readonly string[] | undefined, useCaseSensitiveFileNames: boolean, currentDirectory: string,
    depth: number | undefined, getFileSystemEntries: (path: string) => { files: string[]; directories: string[] },
    realpath: (path: string) => string,
  ): string[];
  /** binder.ts: what the checker runs over every file of its program when it is created (a no-op on a bound file). */
  bindSourceFile(file: ts.SourceFile, options: ts.CompilerOptions): void;
}

interface CheckerInternals {
  getContextualType(node: ts.Expression, contextFlags?: number): ts.Type | undefined;
  /** A union member a literal cannot be, given its discriminant properties (services.ts filters with it). */
  isTypeInvalidDueToUnionDiscriminant(contextualType: ts.Type, object: ts.ObjectLiteralExpression | ts.JsxAttributes): boolean;
}

const internals = ts as unknown as Internals;

/** checker.ts ContextFlags.IgnoreNodeInferences: the contextual type before inferences from the node itself. */
const IGNORE_NODE_INFERENCES = 4;

export const getAssignmentDeclarationKind = (expression: ts.BinaryExpression): AssignmentDeclarationKind =>
  internals.getAssignmentDeclarationKind(expression);

/** utilities.ts isInJSFile: the parser flags every node of a JavaScript file. */
export function isInJSFile(node: ts.Node): boolean {
  return (node.flags & ts.NodeFlags.JavaScriptFile) !== 0;
}

export const matchFiles: Internals['matchFiles'] = (...args) => internals.matchFiles(...args);

export function contextualTypeIgnoringNode(checker: ts.TypeChecker, node: ts.Expression): ts.Type | undefined {
  return (checker as unknown as CheckerInternals).getContextualType(node, IGNORE_NODE_INFERENCES);
}

export function isTypeInvalidDueToUnionDiscriminant(
  checker: ts.TypeChecker, type: ts.Type, object: ts.ObjectLiteralExpression | ts.JsxAttributes,
): boolean {
  return (checker as unknown as CheckerInternals).isTypeInvalidDueToUnionDiscriminant(type, object);
}

/**
 * Binds a file as the checker would when it is created, so that a file the binder cannot handle is
 * found alone instead of ending the creation of its program's checker. The binder keeps its walk
 * state in module variables that only a completed bind clears: after a throw, an empty file is
 * bound so that the next file does not start from the state of the one that failed.
 */
export function bindSourceFile(file: ts.SourceFile, options: ts.CompilerOptions): void {
  try {
    internals.bindSourceFile(file, options);
  } catch (error) {
    internals.bindSourceFile(ts.createSourceFile('/binder-reset.ts', '', ts.ScriptTarget.ESNext), options);
    throw error;
  }
}
