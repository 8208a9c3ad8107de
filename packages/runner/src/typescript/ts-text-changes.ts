// The language service's FileTextChanges as file drafts of a plan: paths made repository-relative
// (an edit outside the repository or in node_modules is refused), edits as plan coordinates over
// the working-tree text, inserted line breaks made each file's own.
import { ts } from 'ts-morph';
import { SextantError } from '@sextant/format';
import { creation, offsetEdits, type FileDraft } from '../planning/file-draft.ts';
import type { RefactorContext } from '../planning/refactor-context.ts';
import type { TypeScriptWorkspace } from './ts-workspace.ts';

export interface Span {
  start: number;
  end: number;
  newText: string;
}

/** Spans by repository-relative path, merged into drafts over the working tree. */
export async function draftsOf(ctx: RefactorContext, spans: Map<string, Span[]>, created = new Map<string, string>()): Promise<FileDraft[]> {
  const drafts: FileDraft[] = [];
  for (const [path, text] of created) drafts.push({ path, change: 'create', edits: creation(text) });
  for (const [path, fileSpans] of spans) {
    if (created.has(path)) continue;
    const before = await ctx.read(path);
    if (!before) {
      throw new SextantError('FILE_NOT_FOUND', `The refactoring edits ${path}, which is not in the working tree.`, 'Check the working tree and plan again.');
    }
    drafts.push({ path, change: 'modify', before, edits: offsetEdits(before, fileSpans) });
  }
  return drafts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Collects FileTextChanges into spans (and created files) by repository-relative path. */
export function collectChanges(
  workspace: TypeScriptWorkspace, changes: readonly ts.FileTextChanges[],
  spans = new Map<string, Span[]>(), created = new Map<string, string>(),
): { spans: Map<string, Span[]>; created: Map<string, string> } {
  for (const change of changes) {
    const path = repositoryPath(workspace, change.fileName);
    if (change.isNewFile) {
      // A new file's changes are all insertions into the empty text, in order.
      created.set(path, (created.get(path) ?? '') + change.textChanges.map((c) => c.newText).join(''));
      continue;
    }
    const list = spans.get(path) ?? [];
    for (const c of change.textChanges) list.push({ start: c.span.start, end: c.span.start + c.span.length, newText: c.newText });
    spans.set(path, list);
  }
  return { spans, created };
}

export function repositoryPath(workspace: TypeScriptWorkspace, fileName: string): string {
  const path = workspace.relative(fileName);
  if (path === undefined) {
    throw new SextantError('PATH_OUTSIDE_ROOT', `The refactoring would edit ${fileName}, outside the repository or in node_modules.`,
      'Refactor symbols declared in the repository; dependencies are not edited.');
  }
  return path;
}
