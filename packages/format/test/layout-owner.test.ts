/// <reference types="node" />
// The format package owns how a record's integer columns are laid out (record-fields.ts): no code
// outside it may import a *_STRIDE constant or read a column of a SymbolRecord, FileRecord or
// ChangeRecord (defs, refs, refDecls, signatures, occ, unresolved) itself. Checked with the
// TypeScript compiler's symbols, not by matching text: renaming a variable, aliasing a column
// (`const r = record.refs`) or destructuring it still reads the property the checker resolves to
// records.ts, while the JVM indexer's own `file.refs` or a test spec's `defs` are other properties.
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FORMAT = join(ROOT, 'packages/format') + sep;
const FORMAT_SRC = join(FORMAT, 'src') + sep;
const RECORDS = join(FORMAT_SRC, 'records.ts');
/** The record columns that are strided lists; their entries are read through record-fields.ts. */
const COLUMNS: Record<string, ReadonlySet<string>> = {
  SymbolRecord: new Set(['defs', 'refs', 'refDecls', 'signatures']),
  FileRecord: new Set(['occ']),
  ChangeRecord: new Set(['unresolved']),
};
const COLUMN_NAMES = new Set(Object.values(COLUMNS).flatMap((names) => [...names]));
/** The project's own TypeScript, where readers and writers of records live. */
const SCANNED = ['packages', 'indexer', 'workers', 'test'];
/** Inputs to indexers and generated or vendored trees, not project code. */
const SKIPPED_DIRS = new Set(['node_modules', 'fixtures', '.bench', '.wrangler', 'dist', 'corpora']);

function projectFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (/\.(ts|mts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !path.startsWith(FORMAT)) out.push(path);
    }
  };
  for (const top of SCANNED) walk(join(ROOT, top));
  return out;
}

/** Where `files` import a stride or read a record column; `where` is path:line and what. */
function layoutReads(program: ts.Program, files: readonly string[]): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  const target = (symbol: ts.Symbol | undefined) => (symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const declaredIn = (symbol: ts.Symbol | undefined): ts.Declaration[] => target(symbol)?.declarations ?? [];
  const isColumn = (symbol: ts.Symbol | undefined): boolean => declaredIn(symbol).some((d) => {
    if (resolve(d.getSourceFile().fileName) !== RECORDS || !ts.isPropertySignature(d) || !ts.isInterfaceDeclaration(d.parent)) return false;
    return COLUMNS[d.parent.name.text]?.has(d.name.getText()) ?? false;
  });
  const isStride = (symbol: ts.Symbol | undefined): boolean =>
    /_STRIDE$/.test(target(symbol)?.name ?? '') && declaredIn(symbol).some((d) => resolve(d.getSourceFile().fileName).startsWith(FORMAT_SRC));
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`the program has no ${file}`);
    const report = (node: ts.Node, what: string) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(ROOT, file)}:${line + 1} ${what}`);
    };
    // Only names that could be a stride or a column are resolved: resolving every identifier would
    // type-check the whole project. A stride cannot be imported without its name, nor a column read.
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && /_STRIDE$/.test(node.text) && isStride(checker.getSymbolAtLocation(node))) report(node, node.text);
      if (ts.isPropertyAccessExpression(node) && COLUMN_NAMES.has(node.name.text) && isColumn(checker.getSymbolAtLocation(node.name))) {
        report(node, `.${node.name.text}`);
      }
      if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && COLUMN_NAMES.has(node.argumentExpression.text)
        && isColumn(checker.getTypeAtLocation(node.expression).getProperty(node.argumentExpression.text))) {
        report(node, `['${node.argumentExpression.text}']`);
      }
      if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const name = node.propertyName ?? node.name;
        if (ts.isIdentifier(name) && COLUMN_NAMES.has(name.text) && isColumn(checker.getTypeAtLocation(node.parent).getProperty(name.text))) {
          report(node, `{ ${name.text} }`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, strict: true, types: ['node'], lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
};

describe('the record layout has one owner', () => {
  it('no file outside packages/format imports a stride or reads a record column', () => {
    const files = projectFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(layoutReads(ts.createProgram(files, OPTIONS), files)).toEqual([]);
  }, 180_000);

  it('finds each way of reading a layout (else the scan above would prove nothing)', () => {
    const file = join(ROOT, 'packages/query/src/__layout-probe__.ts');
    const text = [
      "import { REF_STRIDE as Width, type FileRecord, type SymbolRecord } from '@sextant/format';",
      'export function probe(record: SymbolRecord, file: FileRecord, other: { refs: number[] }): number {',
      '  const list = record.refs;',
      '  const { occ: positions } = file;',
      "  return list[Width + 1]! + positions[0]! + record['signatures']![0]! + other.refs[0]!;",
      '}',
    ].join('\n');
    const host = ts.createCompilerHost(OPTIONS);
    const read = host.readFile.bind(host);
    host.readFile = (name) => (resolve(name) === file ? text : read(name));
    const exists = host.fileExists.bind(host);
    host.fileExists = (name) => resolve(name) === file || exists(name);
    const program = ts.createProgram([file], OPTIONS, host);
    expect(layoutReads(program, [file])).toEqual([
      'packages/query/src/__layout-probe__.ts:1 REF_STRIDE',
      'packages/query/src/__layout-probe__.ts:3 .refs',
      'packages/query/src/__layout-probe__.ts:4 { occ }',
      "packages/query/src/__layout-probe__.ts:5 ['signatures']",
    ]);
  }, 60_000);
});
