// Seeded API-breaking mutations of a TypeScript corpus, for the review benchmark: each mutation is
// one text edit of one file at the base commit (remove or add a required parameter, change a
// parameter's type or a return type, rename a function or method, make a method private, take
// `export` off a declaration, remove an interface member that classes implement, add an abstract
// member to an abstract class with subclasses, add a parameter to a function another file calls
// through a local alias, remove a name from an `export { … } from` barrel or a whole `export *`
// line that importers use), on a declaration the language service finds references to outside
// itself (for a barrel: a name another file imports from it), so the edit has users it can break. Whether it breaks them is the oracle's
// question (compiler-oracle.ts); the bench keeps only the mutations the compiler says break
// something. Candidates are found with ts-morph over the corpus tsconfig; nothing is written here.
import { relative } from 'node:path';
import { Node, Project, SyntaxKind, type ClassDeclaration, type ExportDeclaration, type FunctionDeclaration, type MethodDeclaration, type SourceFile } from 'ts-morph';

export const MUTATION_KINDS = [
  'remove-parameter', 'add-parameter', 'change-parameter-type', 'rename', 'make-private', 'remove-export',
  'remove-interface-member', 'add-abstract-member', 'change-return-type', 'call-through-alias', 'remove-reexport', 'remove-export-star',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

/** What diff_symbols must say about the mutated symbol. */
export interface ExpectedChange {
  change: 'added' | 'removed' | 'modified' | 'renamed';
  aspects: string[];
  /** The side the symbol is looked up on (head for an added member), its name and the line of its name there (1-based). */
  side: 'base' | 'head';
  name: string;
  line: number;
}

export interface Mutation {
  id: string;
  kind: MutationKind;
  /** Repository-relative path of the one file edited. */
  path: string;
  /** The declaration the mutation is about, as a reader would name it (Class.method, fn, Interface.member). */
  qualifiedName: string;
  description: string;
  /** One edit of the base text: characters [start, end) replaced by `text`. */
  edit: { start: number; end: number; text: string };
  /**
   * Lines (1-based, base numbering) of the declaration the edit changes: a diagnostic there is in the
   * change itself (a removed parameter still used by its body), not a site the change breaks.
   */
  declaration: { startLine: number; endLine: number };
  expected: ExpectedChange;
  /** References the language service found outside the declaration (how many, and in how many files). */
  references: number;
  referencingFiles: number;
}

export interface GeneratorOptions {
  /** The corpus directory (its tsconfig.json is read). */
  dir: string;
  random: () => number;
  /** Files whose declarations are not mutated (tests): their uses still count. */
  isTestPath: (path: string) => boolean;
}

/** The edit applied to a text. */
export function applyEdit(text: string, edit: Mutation['edit']): string {
  return text.slice(0, edit.start) + edit.text + text.slice(edit.end);
}

/**
 * Candidates per kind, each kind's list in a seeded order. Cheap: references are asked only when a
 * candidate is taken (`MutationGenerator.next`).
 */
export class MutationGenerator {
  readonly project: Project;
  private readonly dir: string;
  private readonly queues = new Map<MutationKind, (() => Mutation | undefined)[]>();
  private serial = 0;

  constructor(options: GeneratorOptions) {
    this.dir = options.dir;
    this.project = new Project({ tsConfigFilePath: `${options.dir}/tsconfig.json` });
    const files = this.project.getSourceFiles().filter((sf) => {
      const path = this.rel(sf);
      return !path.startsWith('..') && /\.(ts|tsx|mts|cts)$/.test(path) && !path.endsWith('.d.ts') && !options.isTestPath(path);
    });
    const lists = new Map<MutationKind, (() => Mutation | undefined)[]>(MUTATION_KINDS.map((k) => [k, []]));
    for (const sf of files) this.collect(sf, lists);
    for (const [kind, list] of lists) this.queues.set(kind, shuffle(list, options.random));
  }

  /** How many candidates of each kind are left (before the reference check). */
  remaining(kind: MutationKind): number {
    return this.queues.get(kind)!.length;
  }

  /** The next candidate of `kind` that has references outside itself, or undefined when none is left. */
  next(kind: MutationKind): Mutation | undefined {
    const queue = this.queues.get(kind)!;
    while (queue.length) {
      const mutation = queue.shift()!();
      if (mutation) return mutation;
    }
    return undefined;
  }

  private rel(sf: SourceFile): string {
    return relative(this.dir, sf.getFilePath());
  }

  private collect(sf: SourceFile, lists: Map<MutationKind, (() => Mutation | undefined)[]>): void {
    const add = (kind: MutationKind, make: () => Mutation | undefined) => lists.get(kind)!.push(make);
    const callables: (FunctionDeclaration | MethodDeclaration)[] = [
      ...sf.getFunctions().filter((f) => f.getName() && f.hasBody() && f.getOverloads().length === 0),
      ...sf.getClasses().flatMap((c) => c.getMethods().filter((m) => m.hasBody() && m.getOverloads().length === 0 && !m.getNameNode().isKind(SyntaxKind.PrivateIdentifier)
        && !m.getNameNode().isKind(SyntaxKind.ComputedPropertyName))),
    ];
    for (const fn of callables) {
      const params = fn.getParameters();
      const last = params.at(-1);
      if (last && !last.isOptional() && !last.isRestParameter() && !last.hasInitializer() && Node.isIdentifier(last.getNameNode())) {
        add('remove-parameter', () => this.make(fn, 'remove-parameter', `remove required parameter ${last.getName()}`, {
          start: params.length === 1 ? last.getStart() : params.at(-2)!.getEnd(), end: last.getEnd(), text: '',
        }, ['signature']));
      }
      if (params.every((p) => !p.isOptional() && !p.isRestParameter() && !p.hasInitializer())) {
        const at = last ? last.getEnd() : fn.getFirstChildByKindOrThrow(SyntaxKind.OpenParenToken).getEnd();
        add('add-parameter', () => this.make(fn, 'add-parameter', 'add required parameter sextantAdded: string', {
          start: at, end: at, text: `${last ? ', ' : ''}sextantAdded: string`,
        }, ['signature']));
      }
      const typed = params.filter((p) => p.getTypeNode() && !p.isRestParameter());
      if (typed.length) {
        const param = typed[0]!;
        const typeNode = param.getTypeNode()!;
        const from = typeNode.getText();
        const to = mutantType(from);
        add('change-parameter-type', () => this.make(fn, 'change-parameter-type', `parameter ${param.getName()}: ${from} -> ${to}`, {
          start: typeNode.getStart(), end: typeNode.getEnd(), text: to,
        }, ['signature']));
      }
      const nameNode = fn.getNameNode()!;
      if (Node.isIdentifier(nameNode)) {
        // A function exported by a specifier (`export { _catch as catch }`) renamed alone is no longer exported.
        const exportedBySpecifier = Node.isFunctionDeclaration(fn) && fn.isExported() && !fn.hasExportKeyword();
        add('rename', () => this.make(fn, 'rename', `rename ${nameNode.getText()} -> ${nameNode.getText()}Renamed`, {
          start: nameNode.getStart(), end: nameNode.getEnd(), text: `${nameNode.getText()}Renamed`,
        }, exportedBySpecifier ? ['modifiers'] : [], 'renamed'));
      }
      if (Node.isMethodDeclaration(fn) && !fn.hasModifier(SyntaxKind.PrivateKeyword) && !fn.hasModifier(SyntaxKind.ProtectedKeyword) && fn.getDecorators().length === 0) {
        const publicKeyword = fn.getModifiers().find((m) => m.isKind(SyntaxKind.PublicKeyword));
        add('make-private', () => this.make(fn, 'make-private', 'make the method private', publicKeyword
          ? { start: publicKeyword.getStart(), end: publicKeyword.getEnd(), text: 'private' }
          : { start: fn.getStart(), end: fn.getStart(), text: 'private ' }, ['modifiers']));
      }
      const returned = fn.getReturnTypeNode();
      // A type predicate or assertion is not a type to swap; void and never have no value to misuse.
      if (returned && !Node.isTypePredicate(returned) && !['void', 'never', 'this', 'undefined'].includes(returned.getText())) {
        const from = returned.getText();
        const to = mutantType(from);
        add('change-return-type', () => this.make(fn, 'change-return-type', `return type ${from.length > 40 ? `${from.slice(0, 40)}…` : from} -> ${to}`, {
          start: returned.getStart(), end: returned.getEnd(), text: to,
        }, ['signature'], 'modified', fn, false, (refs) => refs.some(usesResult)));
      }
      if (Node.isFunctionDeclaration(fn) && params.every((p) => !p.isOptional() && !p.isRestParameter() && !p.hasInitializer())) {
        const at = last ? last.getEnd() : fn.getFirstChildByKindOrThrow(SyntaxKind.OpenParenToken).getEnd();
        add('call-through-alias', () => this.make(fn, 'call-through-alias', 'add required parameter sextantAdded: string (called through a local alias)', {
          start: at, end: at, text: `${last ? ', ' : ''}sextantAdded: string`,
        }, ['signature'], 'modified', fn, false, (refs) => refs.some(isAliased)));
      }
    }

    for (const statement of sf.getExportDeclarations()) this.collectReexports(statement, add);

    for (const statement of sf.getStatements()) {
      if (!Node.isExportable(statement) || !statement.hasExportKeyword() || statement.hasDefaultKeyword()) continue;
      const named = Node.isVariableStatement(statement) ? statement.getDeclarations() : [statement];
      if (named.length !== 1) continue;
      const decl = named[0]!;
      const nameNode = (decl as { getNameNode?: () => Node | undefined }).getNameNode?.();
      if (!nameNode || !Node.isIdentifier(nameNode)) continue;
      if ((nameNode.getSymbol()?.getDeclarations().length ?? 0) !== 1) continue; // merged or overloaded: one `export` off is an error at the declaration
      const exportKeyword = statement.getFirstDescendantByKind(SyntaxKind.ExportKeyword);
      if (!exportKeyword) continue;
      const text = sf.getFullText();
      let end = exportKeyword.getEnd();
      while (end < text.length && /\s/.test(text[end]!)) end++;
      add('remove-export', () => this.make(decl as unknown as Node, 'remove-export', `remove export from ${nameNode.getText()}`, {
        start: exportKeyword.getStart(), end, text: '',
      }, ['modifiers'], 'modified', statement, true));
    }

    for (const iface of sf.getInterfaces()) {
      const implemented = iface.getImplementations().some((impl) => Node.isClassDeclaration(impl.getNode().getParent()));
      if (!implemented) continue;
      for (const member of [...iface.getProperties(), ...iface.getMethods()]) {
        const nameNode = member.getNameNode();
        if (!Node.isIdentifier(nameNode)) continue;
        // One signature of an overloaded member removed leaves the member: a modification, not this kind.
        if (iface.getMembers().filter((m) => (m as { getName?: () => string }).getName?.() === nameNode.getText()).length > 1) continue;
        add('remove-interface-member', () => this.make(member, 'remove-interface-member', `remove ${iface.getName()}.${nameNode.getText()}`, {
          start: member.getFullStart(), end: member.getEnd(), text: '',
        }, [], 'removed'));
      }
    }

    for (const cls of sf.getClasses()) {
      if (!cls.isAbstract() || !cls.getName()) continue;
      add('add-abstract-member', () => this.addAbstract(cls));
    }
  }

  /** A candidate on `decl` (a function, method, member or exported declaration), when it has references outside itself. */
  private make(
    decl: Node, kind: MutationKind, description: string, edit: Mutation['edit'], aspects: string[],
    change: ExpectedChange['change'] = 'modified', whole: Node = decl, crossFileOnly = false,
    wanted: (outside: Node[]) => boolean = () => true,
  ): Mutation | undefined {
    const nameNode = (decl as unknown as { getNameNode(): Node }).getNameNode();
    // A quoted or computed member name (`'~standard'()`): not a name the mutations can rename or find.
    if (!Node.isIdentifier(nameNode)) return undefined;
    const sf = decl.getSourceFile();
    const start = whole.getStart();
    const end = whole.getEnd();
    const outside = nameNode.findReferencesAsNodes().filter((ref) => {
      if (ref.getSourceFile() !== sf) return true;
      return !crossFileOnly && (ref.getStart() < start || ref.getStart() >= end);
    });
    if (outside.length === 0 || !wanted(outside)) return undefined;
    const name = nameNode.getText();
    const container = decl.getParent();
    const owner = container && (Node.isClassDeclaration(container) || Node.isInterfaceDeclaration(container)) ? container.getName() : undefined;
    return {
      id: `${kind}-${++this.serial}`,
      kind,
      path: this.rel(sf),
      qualifiedName: owner ? `${owner}.${name}` : name,
      description,
      edit,
      declaration: { startLine: whole.getStartLineNumber(), endLine: whole.getEndLineNumber() },
      expected: { change, aspects, side: 'base', name, line: nameNode.getStartLineNumber() },
      references: outside.length,
      referencingFiles: new Set(outside.map((ref) => ref.getSourceFile().getFilePath())).size,
    };
  }

  /**
   * A name removed from `export { a, b as c } from './x'`, or a whole `export * from './x'` line,
   * where another file imports that name from this module (a use the barrel no longer serves).
   */
  private collectReexports(statement: ExportDeclaration, add: (kind: MutationKind, make: () => Mutation | undefined) => void): void {
    if (!statement.getModuleSpecifier() || statement.isTypeOnly()) return;
    const sf = statement.getSourceFile();
    const text = sf.getFullText();
    const declaration = { startLine: statement.getStartLineNumber(), endLine: statement.getEndLineNumber() };
    const base = { path: this.rel(sf), declaration, references: 0, referencingFiles: 0 };
    if (!statement.hasNamedExports()) {
      if (statement.getNamespaceExport()) return; // `export * as ns`: a declaration of the barrel, not this kind
      add('remove-export-star', () => {
        const target = statement.getModuleSpecifierSourceFile();
        if (!target) return undefined;
        const provided = new Set(target.getExportSymbols().map((e) => e.getName()));
        const used = this.importedNames(sf).filter((n) => provided.has(n.name));
        if (used.length === 0) return undefined;
        const end = text[statement.getEnd()] === '\n' ? statement.getEnd() + 1 : statement.getEnd();
        const name = used[0]!.name;
        return {
          ...base, id: `remove-export-star-${++this.serial}`, kind: 'remove-export-star', qualifiedName: name,
          description: `remove ${statement.getText()} (importers use ${used.length} of its names, ${name} first)`,
          edit: { start: statement.getStart(), end, text: '' },
          expected: { change: 'modified', aspects: ['exports'], side: 'base', name, line: statement.getStartLineNumber() },
          references: used.length, referencingFiles: new Set(used.map((u) => u.file)).size,
        };
      });
      return;
    }
    const specifiers = statement.getNamedExports();
    specifiers.forEach((specifier, i) => {
      if (specifier.isTypeOnly()) return;
      add('remove-reexport', () => {
        const name = (specifier.getAliasNode() ?? specifier.getNameNode()).getText();
        const used = this.importedNames(sf).filter((n) => n.name === name);
        if (used.length === 0) return undefined;
        // The specifier and the comma that separates it from its neighbour.
        const next = specifiers[i + 1];
        const previous = specifiers[i - 1];
        const edit = next ? { start: specifier.getStart(), end: next.getStart(), text: '' }
          : previous ? { start: previous.getEnd(), end: specifier.getEnd(), text: '' }
            : { start: specifier.getStart(), end: specifier.getEnd(), text: '' };
        return {
          ...base, id: `remove-reexport-${++this.serial}`, kind: 'remove-reexport', qualifiedName: name,
          description: `remove ${specifier.getText()} from ${statement.getModuleSpecifierValue()}'s re-exports`,
          edit,
          expected: { change: 'modified', aspects: ['exports'], side: 'base', name, line: specifier.getStartLineNumber() },
          references: used.length, referencingFiles: new Set(used.map((u) => u.file)).size,
        };
      });
    });
  }

  /** Names other files import (or re-export) from `sf` by name; a namespace import counts every name it uses as `ns.name`. */
  private importedNames(sf: SourceFile): { name: string; file: string }[] {
    let names = this.importedCache.get(sf);
    if (names) return names;
    names = [];
    for (const node of sf.getReferencingNodesInOtherSourceFiles()) {
      const file = this.rel(node.getSourceFile());
      if (Node.isImportDeclaration(node)) {
        for (const named of node.getNamedImports()) names.push({ name: named.getName(), file });
        const namespace = node.getNamespaceImport();
        if (namespace) {
          for (const ref of namespace.findReferencesAsNodes()) {
            const parent = ref.getParent();
            if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === ref) names.push({ name: parent.getName(), file });
            else if (Node.isQualifiedName(parent) && parent.getLeft() === ref) names.push({ name: parent.getRight().getText(), file });
          }
        }
      } else if (Node.isExportDeclaration(node)) {
        for (const named of node.getNamedExports()) names.push({ name: named.getName(), file });
      }
    }
    this.importedCache.set(sf, names);
    return names;
  }

  private readonly importedCache = new Map<SourceFile, { name: string; file: string }[]>();

  /** An abstract method added to an abstract class that concrete classes extend. */
  private addAbstract(cls: ClassDeclaration): Mutation | undefined {
    const concrete = cls.getDerivedClasses().filter((derived) => !derived.isAbstract());
    if (concrete.length === 0) return undefined;
    const brace = cls.getFirstChildByKindOrThrow(SyntaxKind.OpenBraceToken);
    const sf = cls.getSourceFile();
    const name = 'sextantAddedMember';
    return {
      id: `add-abstract-member-${++this.serial}`,
      kind: 'add-abstract-member',
      path: this.rel(sf),
      qualifiedName: `${cls.getName()}.${name}`,
      description: `add abstract ${name}(): void to ${cls.getName()} (${concrete.length} concrete subclasses)`,
      edit: { start: brace.getEnd(), end: brace.getEnd(), text: `\n  abstract ${name}(): void;` },
      declaration: { startLine: brace.getStartLineNumber(), endLine: brace.getStartLineNumber() + 1 },
      expected: { change: 'added', aspects: [], side: 'head', name, line: brace.getStartLineNumber() + 1 },
      references: concrete.length,
      referencingFiles: new Set(concrete.map((c) => c.getSourceFile().getFilePath())).size,
    };
  }
}

/** A type a value of `from` does not fit: string and number swap, a boolean becomes a string, anything else an object type. */
function mutantType(from: string): string {
  return from === 'string' ? 'number' : from === 'number' || from === 'boolean' ? 'string' : '{ readonly sextantMutant: "mutant" }';
}

/** A reference whose call's result is used (assigned, passed, returned, read), not a call as a statement of its own. */
function usesResult(ref: Node): boolean {
  let callee: Node = ref;
  while (Node.isPropertyAccessExpression(callee.getParent()) && (callee.getParent() as Node & { getNameNode(): Node }).getNameNode() === callee) callee = callee.getParent()!;
  const call = callee.getParent();
  if (!Node.isCallExpression(call) || call.getExpression() !== callee) return false;
  const user = call.getParent();
  return user !== undefined && !Node.isExpressionStatement(user) && !Node.isVoidExpression(user);
}

/** A reference that a local variable takes as its value (`const fn = f`, `= opts.f || f`, `= c ? f : g`), to be called through it. */
function isAliased(ref: Node): boolean {
  let value: Node = ref;
  for (;;) {
    const parent = value.getParent();
    if (!parent) return false;
    if (Node.isBinaryExpression(parent) && ['||', '??'].includes(parent.getOperatorToken().getText())) value = parent;
    else if (Node.isConditionalExpression(parent) && parent.getCondition() !== value) value = parent;
    else if (Node.isParenthesizedExpression(parent)) value = parent;
    else return Node.isVariableDeclaration(parent) && parent.getInitializer() === value && Node.isIdentifier(parent.getNameNode());
  }
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
