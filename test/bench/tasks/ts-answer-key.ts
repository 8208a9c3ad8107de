// Answer keys for TypeScript tasks, from the TypeScript language service over the same programs
// `indexer build` makes of the corpus commit (corpusLanguageServices in indexer/bench): call
// hierarchy for callers and callees, getImplementationAtPosition, findReferences, the checker's
// getResolvedSignature for overloads, getDefinitionAtPosition and findRenameLocations. Never Sextant.
import { ts } from 'ts-morph';
import { corpusLanguageServices, type CorpusServices, type Service } from '../../../indexer/bench/references-accuracy.ts';
import { parsePosition, TEST_PATH, type Answer, type Task } from './task-types.ts';

export class TsAnswerKey {
  private constructor(private readonly corpus: CorpusServices, private readonly owner: Map<string, Service>) {}

  static async open(repo: string, commit: string, maxFileBytes: number): Promise<TsAnswerKey> {
    const corpus = await corpusLanguageServices(repo, commit, maxFileBytes);
    const owner = new Map<string, Service>();
    for (const s of corpus.services) for (const path of s.plan.owned) owner.set(path, s);
    return new TsAnswerKey(corpus, owner);
  }

  answer(task: Task): Answer {
    const at = parsePosition(task.at);
    const service = this.owner.get(at.path);
    if (!service) throw new Error(`${task.id}: ${at.path} is in no program of the corpus`);
    const ls = service.service;
    const program = ls.getProgram()!;
    const fileName = this.corpus.host.absolute(at.path);
    const sourceFile = program.getSourceFile(fileName);
    if (!sourceFile) throw new Error(`${task.id}: no source file ${at.path}`);
    const position = sourceFile.getPositionOfLineAndCharacter(at.line - 1, at.column - 1);
    const node = innermostNode(sourceFile, position);
    if (!ts.isIdentifier(node) && !ts.isPrivateIdentifier(node) || node.text !== task.name) {
      throw new Error(`${task.id}: ${task.at} is on "${node.getText(sourceFile).slice(0, 40)}", not on ${task.name}`);
    }
    const rel = (name: string) => this.corpus.host.relative(name);
    const lineAt = (name: string, start: number) => {
      const file = program.getSourceFile(name);
      return file ? file.getLineAndCharacterOfPosition(start).line + 1 : 0;
    };
    const items = new Set<string>();
    switch (task.kind) {
      case 'callers':
        for (const call of ls.provideCallHierarchyIncomingCalls(fileName, position)) {
          const path = rel(call.from.file);
          if (path === undefined) continue;
          for (const span of call.fromSpans) items.add(`${path}:${lineAt(call.from.file, span.start)}`);
        }
        break;
      case 'callees':
        for (const call of ls.provideCallHierarchyOutgoingCalls(fileName, position)) {
          const path = rel(call.to.file);
          if (path !== undefined) items.add(`${call.to.name}@${path}`);
        }
        break;
      case 'implementations':
        for (const impl of ls.getImplementationAtPosition(fileName, position) ?? []) {
          const path = rel(impl.fileName);
          const file = program.getSourceFile(impl.fileName);
          if (path === undefined || !file) continue;
          // A class is named by its own span (its name, or the whole declaration); an object literal
          // or function inside a class's method is an implementation of its own, not the class.
          const named = innermostNode(file, impl.textSpan.start);
          const decl = ts.isClassLike(named) ? named : ts.isClassLike(named.parent) && named.parent.name === named ? named.parent : undefined;
          // The language service lists a class asked about among its own implementations: the
          // question is about the others.
          if (decl?.name && !(path === at.path && decl.name.text === task.name)) items.add(`${path}#${decl.name.text}`);
        }
        break;
      case 'used-outside-tests': {
        let used = false;
        for (const group of ls.findReferences(fileName, position) ?? []) {
          for (const ref of group.references) {
            const path = rel(ref.fileName);
            if (path === undefined || ref.isDefinition || TEST_PATH.test(path)) continue;
            const file = program.getSourceFile(ref.fileName)!;
            if (isImportOrExport(innermostNode(file, ref.textSpan.start))) continue;
            used = true;
          }
        }
        items.add(used ? 'yes' : 'no');
        break;
      }
      case 'overload': {
        let call: ts.Node | undefined = node;
        while (call && !(ts.isCallOrNewExpression(call) && containsCallee(call, position))) call = call.parent;
        if (!call || !ts.isCallOrNewExpression(call)) throw new Error(`${task.id}: ${task.at} is not the callee of a call`);
        const declaration = program.getTypeChecker().getResolvedSignature(call)?.declaration;
        if (declaration && !ts.isJSDocSignature(declaration)) {
          const file = declaration.getSourceFile();
          const path = rel(file.fileName);
          const named = (declaration as ts.SignatureDeclaration).name ?? declaration;
          if (path !== undefined) items.add(`${path}:${file.getLineAndCharacterOfPosition(named.getStart(file)).line + 1}`);
        }
        break;
      }
      case 'definition':
        for (const def of ls.getDefinitionAtPosition(fileName, position) ?? []) {
          const path = rel(def.fileName);
          if (path !== undefined) items.add(`${path}:${lineAt(def.fileName, def.textSpan.start)}`);
        }
        break;
      case 'rename-files':
        for (const loc of ls.findRenameLocations(fileName, position, false, false, { providePrefixAndSuffixTextForRename: true }) ?? []) {
          const path = rel(loc.fileName);
          if (path !== undefined) items.add(path);
        }
        break;
    }
    return { items: [...items].sort() };
  }
}

/** The innermost node whose span (without leading trivia) holds `position`. */
export function innermostNode(sourceFile: ts.SourceFile, position: number): ts.Node {
  let found: ts.Node = sourceFile;
  const visit = (node: ts.Node): void => {
    if (position < node.getStart(sourceFile) || position >= node.getEnd()) return;
    found = node;
    node.forEachChild(visit);
  };
  sourceFile.forEachChild(visit);
  return found;
}

function containsCallee(call: ts.CallExpression | ts.NewExpression, position: number): boolean {
  return position >= call.expression.getStart() && position < call.expression.getEnd();
}

/** An import or export specifier, clause or namespace import: naming a symbol there is not a use. */
function isImportOrExport(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isImportEqualsDeclaration(n) || ts.isExportAssignment(n)) return true;
    if (ts.isStatement(n) || ts.isSourceFile(n)) return false;
  }
  return false;
}
