// What the text-search benches ask and check against: the queries made from a corpus's own words
// (literals of several selectivities, case-insensitive, whole-word, RE2 patterns with classes,
// alternation and anchors, path-filtered, in non-code files), ripgrep's answer to each over the
// checkout with the flags aligned (-F, -s/-i, -w, -g), and the comparison of match sets by file,
// line and byte column. Used by the in-process bench (text-search.ts) and the worker's
// (workers/mcp/bench/text-section.ts), so both check the same queries against the same oracle.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TextQuery {
  kind: string;
  args: { query: string; mode?: 'literal' | 'regex'; caseSensitive: boolean; wholeWord?: boolean; paths?: string[] };
}

/** Query kinds whose warm time issue #29 targets in the worker: selective literals (3 ms CPU) and broad ones (20 ms). */
export const SELECTIVE_KIND = 'literal, selective (1 file)';
export const BROAD_KIND = 'literal, broad (most files)';

/** ripgrep's first line (`ripgrep 13.0.0`), or an error that says how to install it. */
export function ripgrepVersion(): string {
  const rg = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (rg.status !== 0) throw new Error('ripgrep (rg) is not on PATH. To fix this, install it (Debian: apt-get install ripgrep) and run the bench again.');
  return rg.stdout.split('\n')[0]!;
}

/** Queries made from the corpus's own words, deterministic for a commit. */
export function queriesOf(dir: string, tracked: string[]): TextQuery[] {
  const files = new Map<string, Set<string>>();
  for (const path of tracked) {
    const text = readFileSync(join(dir, path), 'utf8');
    for (const word of new Set(text.match(/\b[A-Za-z_][A-Za-z0-9_]{5,}\b/g) ?? [])) {
      let set = files.get(word);
      if (!set) files.set(word, (set = new Set()));
      set.add(path);
    }
  }
  const words = [...files].map(([word, set]) => ({ word, files: set.size })).sort((x, y) => x.files - y.files || (x.word < y.word ? -1 : 1));
  const pick = (min: number, max: number, n: number) => {
    const within = words.filter((w) => w.files >= min && w.files <= max);
    return Array.from({ length: Math.min(n, within.length) }, (_, i) => within[Math.floor((i * within.length) / n)]!.word);
  };
  /** Words found in 2 to 20 files, some of them under `prefix`. */
  const pickIn = (prefix: string, n: number) => {
    const within = words.filter((w) => w.files >= 2 && w.files <= 20 && [...files.get(w.word)!].some((p) => p.startsWith(prefix)));
    return Array.from({ length: Math.min(n, within.length) }, (_, i) => within[Math.floor((i * within.length) / n)]!.word);
  };
  const smart = (q: string) => q !== q.toLowerCase();
  const literal = (kind: string, query: string, extra: Partial<TextQuery['args']> = {}): TextQuery => ({ kind, args: { query, caseSensitive: smart(query), ...extra } });
  const top = tracked.find((p) => p.startsWith('src/') && p.split('/').length > 2)?.split('/').slice(0, 2).join('/') ?? 'src';
  return [
    ...pick(1, 1, 10).map((w) => literal(SELECTIVE_KIND, w)),
    ...pick(10, 60, 10).map((w) => literal('literal, medium (10-60 files)', w)),
    ...words.slice(-5).map((w) => literal(BROAD_KIND, w.word)),
    ...['return', 'this.', 'export'].map((q) => literal(BROAD_KIND, q)),
    ...pick(10, 60, 5).map((w) => literal('case-insensitive', w.toUpperCase(), { caseSensitive: false })),
    ...pick(3, 30, 5).map((w) => literal('whole word', w, { wholeWord: true })),
    ...['\\bcreate[A-Z]\\w+', 'TODO|FIXME|XXX', '^export (function|const|class) \\w+', '^\\s*//', '\\d{3,}', '[A-Z][a-z]+Error\\b', '(?i)deprecated', 'new [A-Z]\\w*\\(', '=>\\s*\\{$', '\\bif \\(!?\\w+\\)']
      .map((q) => ({ kind: 'regex', args: { query: q, mode: 'regex' as const, caseSensitive: true } })),
    ...pickIn(`${top}/`, 5).map((w) => literal('path-filtered', w, { paths: [`${top}/**`] })),
    literal('non-code file', '"compilerOptions"'),
    literal('non-code file', '"version"', { paths: ['*.json'] }),
  ];
}

/** The same query under another fingerprint (an exclusion that excludes nothing), so no count kept from an earlier call answers it. */
export function freshArgs(args: TextQuery['args'], i: number): TextQuery['args'] {
  return { ...args, paths: [...(args.paths ?? ['**']), `!.no-such-dir-${i}/**`] };
}

/** ripgrep's matches over the checkout as `path:line:byteColumn`, and its wall time. */
export function ripgrep(args: TextQuery['args'], dir: string): { matches: string[]; ms: number } {
  const flags = ['--vimgrep', '--no-config', '--color', 'never', '--hidden', '--no-ignore', '-g', '!.git', args.caseSensitive ? '-s' : '-i'];
  if (args.mode !== 'regex') flags.push('-F');
  if (args.wholeWord) flags.push('-w');
  for (const glob of args.paths ?? []) flags.push('-g', glob);
  const started = performance.now();
  // A path, or ripgrep reads its standard input (a pipe here).
  const run = spawnSync('rg', [...flags, '-e', args.query, '.'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - started;
  if (run.status === 2) throw new Error(`rg failed on ${args.query}: ${run.stderr}`);
  const matches = run.stdout.split('\n').filter(Boolean).map((line) => {
    const [path, l, c] = line.split(':');
    return `${path!.replace(/^\.\//, '')}:${l}:${c}`;
  });
  return { matches, ms };
}

/** search_text's matches as ripgrep prints them: `path:line:byteColumn` (ripgrep counts bytes, search_text UTF-16 code units). */
export function asRipgrepKeys(dir: string, matches: readonly { path: string; line: number; column: number }[]): string[] {
  const lines = new Map<string, string[]>();
  return matches.map((m) => {
    let file = lines.get(m.path);
    if (!file) lines.set(m.path, (file = readFileSync(join(dir, m.path), 'utf8').split('\n')));
    return `${m.path}:${m.line}:${Buffer.byteLength((file[m.line - 1] ?? '').slice(0, m.column - 1)) + 1}`;
  });
}

export interface Agreement {
  agree: boolean;
  onlyOurs: string[];
  onlyRg: string[];
}

/** Equal match sets, each of ours listed once. */
export function agreement(ours: readonly string[], rg: readonly string[]): Agreement {
  const a = new Set(ours);
  const b = new Set(rg);
  const onlyOurs = [...a].filter((m) => !b.has(m));
  const onlyRg = [...b].filter((m) => !a.has(m));
  return { agree: onlyOurs.length === 0 && onlyRg.length === 0 && a.size === ours.length, onlyOurs, onlyRg };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
