// The source of the sites a list answers with (references, call sites, problems, change-impact
// sites): each site's own line as `text`, and with `context` N the N lines before and after it. A
// model would otherwise read_file every site to see what it does. The lines come from the text
// shards of the page's files, all requested at once, so a page costs one round of reads however
// many files it spans; nothing outside the page is read.
import { contextLineOf } from '@sextant/format';
import { fileLines } from './file-tools.ts';
import type { IndexReader } from './index-reader.ts';

const MAX_CONTEXT = 3;

export interface SiteLines {
  /** The site's line as in the file (indentation kept, trailing blanks removed), cut like a preview. */
  text: string;
  /** With context > 0: up to that many lines before and after, alike. */
  before?: string[];
  after?: string[];
}

/** `sites` with their lines added, in the same order. */
export async function withSiteLines<T extends { path: string; line: number }>(
  reader: IndexReader, sites: readonly T[], context = 0,
): Promise<(T & SiteLines)[]> {
  const paths = [...new Set(sites.map((s) => s.path))];
  await reader.prefetch([...new Set(paths.map((p) => reader.textShardNameOf(p)))]);
  const texts = new Map<string, string[]>();
  for (const path of paths) texts.set(path, await fileLines(reader, path));
  return sites.map((site) => ({ ...site, ...linesAround(texts.get(site.path)!, site.line, context) }));
}

/**
 * The sites of several lists (a graph's edges, a change's impacts) with their lines, all read in one
 * round as withSiteLines reads one list's, and handed back list by list.
 */
export async function withSiteLinesOf<S extends { path: string; line: number }, T extends { sites: readonly S[] }>(
  reader: IndexReader, lists: readonly T[], context = 0,
): Promise<(Omit<T, 'sites'> & { sites: (S & SiteLines)[] })[]> {
  const lined = await withSiteLines(reader, lists.flatMap((l) => l.sites), context);
  let next = 0;
  return lists.map((l) => ({ ...l, sites: lined.slice(next, next += l.sites.length) }));
}

function linesAround(lines: readonly string[], line: number, context: number): SiteLines {
  const own: SiteLines = { text: contextLineOf(lines[line - 1] ?? '') };
  if (context <= 0) return own;
  // A final line break ends the last line; the empty string after it is no line of the file.
  const end = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  return {
    ...own,
    before: lines.slice(Math.max(0, line - 1 - context), line - 1).map(contextLineOf),
    after: lines.slice(line, Math.min(end, line + context)).map(contextLineOf),
  };
}
