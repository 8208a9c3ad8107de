// `indexer build --scip <file>`: the documents of SCIP indexes matched to the commit's files. A
// document owns its file when the file is tracked, read, of a language Sextant stores, and the
// document matches its text (scip-document.ts); any other is refused for that file alone, which
// then falls to the next indexer as if there were no document, and the manifest's warnings say
// `path: SCIP document from <file> refused: <reason>`.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SkippedFile } from '@sextant/format';
import type { LanguageIndexer } from '../language-indexer.ts';
import { SymbolRole, type Index, type SymbolInformation } from './scip_pb.ts';
import { checkDocument, languageOfDocument, type CheckedDocument } from './scip-document.ts';
import { readScipFile, SCIP_PARSER_PREFIX, type ScipFile } from './scip-file.ts';
import { ScipIndexer } from './scip-indexer.ts';

export interface ScipImport {
  /** Owns the files whose document matched them: first among the build's indexers. */
  indexer: LanguageIndexer;
  /** For the manifest: each document refused and why, and project roots read by a guess. */
  warnings: string[];
  /** For the manifest's parsers: `scip:<tool>` → the version of each indexer that wrote an index. */
  parsers: Record<string, string>;
}

/** The commit as the build read it. */
export interface CommitFiles {
  /** Absolute path of the repository root. */
  root: string;
  /** Every tracked path. */
  tracked: readonly string[];
  /** The text of every file read. */
  texts: ReadonlyMap<string, string>;
  /** Files not read, with why. */
  skipped: readonly SkippedFile[];
}

/** Every file decoded, or the build's error for the first that is missing or not SCIP; before any work. */
export async function readScipFiles(files: readonly string[]): Promise<ScipFile[]> {
  const read: ScipFile[] = [];
  for (const file of files) read.push(await readScipFile(file));
  return read;
}

export function importScip(files: readonly ScipFile[], commit: CommitFiles): ScipImport {
  const tracked = new Set(commit.tracked);
  const skipped = new Map(commit.skipped.map((s) => [s.path, s]));
  const accepted = new Map<string, CheckedDocument>();
  const from = new Map<string, string>();
  const refusedDefinitions = new Set<string>();
  const information = new Map<string, SymbolInformation>();
  const warnings: string[] = [];
  const parsers: Record<string, string> = {};
  const tools: string[] = [];
  for (const { file, index, tool } of files) {
    parsers[`${SCIP_PARSER_PREFIX}${tool.name}`] = tool.version;
    const name = `${tool.name}${tool.version ? ` ${tool.version}` : ''}`;
    if (!tools.includes(name)) tools.push(name);
    for (const info of index.externalSymbols) if (!information.has(info.symbol)) information.set(info.symbol, info);
    const { prefix, guessed } = projectPrefix(index, commit.root, tracked);
    if (guessed) warnings.push(`SCIP index ${file}: its project root ${index.metadata!.projectRoot} is not inside the repository (${commit.root}); ${guessed}`);
    for (const document of index.documents) {
      for (const info of document.symbols) if (!information.has(info.symbol)) information.set(info.symbol, info);
      const path = prefix + document.relativePath;
      const refuse = (reason: string) => {
        warnings.push(`${path}: SCIP document from ${file} refused: ${reason}`);
        for (const o of document.occurrences) if (o.symbolRoles & SymbolRole.Definition && !o.symbol.startsWith('local ')) refusedDefinitions.add(o.symbol);
      };
      if (!document.relativePath || !tracked.has(path)) {
        refuse(document.relativePath ? 'the commit does not track this path' : 'the document names no path');
        continue;
      }
      const text = commit.texts.get(path);
      if (text === undefined) {
        const why = skipped.get(path);
        refuse(`the build does not read the file${why ? ` (${why.reason}: ${why.detail})` : ''}`);
        continue;
      }
      if (accepted.has(path)) {
        refuse(`a document of ${from.get(path)} covers it already`);
        continue;
      }
      const lang = languageOfDocument(document, path);
      if (!lang) {
        refuse(`its language (${document.language || 'from the file extension'}) is not one Sextant stores`);
        continue;
      }
      const checked = checkDocument(document, path, lang, text);
      if (typeof checked === 'string') {
        refuse(`it does not match the file: ${checked}`);
        continue;
      }
      accepted.set(path, checked);
      from.set(path, file);
    }
  }
  // A symbol one document defines is no refused one's, even if a refused document defines it too.
  for (const document of accepted.values()) for (const o of document.occurrences) if (o.roles & SymbolRole.Definition) refusedDefinitions.delete(o.symbol);
  return { indexer: new ScipIndexer({ accepted, refusedDefinitions, information, tools }), warnings, parsers };
}

/**
 * What to put before a document's relative_path to make it the repository's path: the project
 * root's place inside the repository. A project root elsewhere (an index made on another machine,
 * in CI) is matched by its trailing directories, taking the reading under which most documents are
 * tracked files, and `guessed` says which was taken.
 */
function projectPrefix(index: Index, root: string, tracked: ReadonlySet<string>): { prefix: string; guessed?: string } {
  const uri = index.metadata?.projectRoot ?? '';
  let project: string | undefined;
  try {
    project = uri.startsWith('file:') ? fileURLToPath(uri) : uri || undefined;
  } catch {
    project = undefined;
  }
  if (project === undefined) return { prefix: '' };
  const inside = relative(realOf(root), realOf(project));
  if (!inside.startsWith('..') && !isAbsolute(inside)) return { prefix: inside ? `${inside.split(sep).join('/')}/` : '' };
  const segments = project.split(/[\\/]/).filter(Boolean);
  let best = { prefix: '', count: -1 };
  for (let k = 0; k < segments.length; k++) {
    const prefix = k === 0 ? '' : `${segments.slice(-k).join('/')}/`;
    const count = index.documents.filter((d) => tracked.has(prefix + d.relativePath)).length;
    if (count > best.count) best = { prefix, count };
  }
  const where = best.prefix ? `its documents are read as under ${best.prefix}` : 'its documents are read as relative to the repository root';
  return { prefix: best.prefix, guessed: `${where} (${best.count} of ${index.documents.length} tracked there)` };
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
