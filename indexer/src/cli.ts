// The `indexer` command line: reads the arguments of `build`, `review`, `publish` and `gc` and runs
// their actions (cli-actions.ts). Errors print what went wrong and how to fix it (cliLine).
import { parseArgs } from 'node:util';
import { cliLine, SextantError } from '@sextant/format';
import { INDEXER_ACTIONS, REVIEW_FORMATS, type IndexerActions } from './cli-actions.ts';

const USAGE = `usage:
  indexer build [--commit <sha|ref>] [--repo DIR] [--out DIR] [--repo-name owner/name] [--max-file-bytes N] [--from DIR | --from-ref NAME | --from-commit <sha|ref> [--local] [--persist-to DIR] [--config PATH]] [--max-changed-share F] [--scip FILE]... [--no-auto-scip] [--quiet] [--verbose]
      Index the files tracked at a commit (default HEAD of the repository at --repo, default .)
      into a directory of shards (default .sextant/index, added to .git/info/exclude). Warnings
      about project configuration are counted in one line; --verbose prints each. --from: build
      from the index of another commit in DIR, walking again only the TypeScript and JavaScript
      files the change can reach (the shards equal a full build's); in full, saying why, when that
      cannot be sure or more than --max-changed-share (default 0.3) of them changed or are
      reached by the change. --from-ref, --from-commit: the same from the index published under
      that ref or commit (the store options of publish). --scip FILE (repeatable): a SCIP index
      (index.scip of scip-typescript, scip-python, scip-go, …) whose documents index the files
      they match, with precision scip; a document that does not match its file at the commit is
      refused, with a warning, and its file indexed as without it. Without --scip, the SCIP
      indexers installed (scip-python, the indexer's optional dependency, or on PATH; scip-go on
      PATH) run on the commit's files of their languages and are imported the same way;
      --no-auto-scip does not run them.
  indexer review --base <sha|ref> [--head <sha|ref>] [--repo DIR] [--format markdown|text|json] [--out-root DIR] [--max-file-bytes N] [--quiet]
      What the change from base to head (default HEAD) does to the symbols and what it breaks
      (the diff_symbols and change_impact tools). Each commit is indexed into
      <out-root>/<sha>/ (default <repo>/.sextant/indexes, added to .git/info/exclude) unless a
      complete index of it is there already. Default format: markdown.
  indexer publish [--out DIR] [--repo-name owner/name] [--ref NAME] [--default] [--verify] [--force] [--local] [--persist-to DIR] [--config PATH]
      Upload an index to R2 (--local: wrangler's local R2 used by \`wrangler dev\`); --verify reads every shard back.
  indexer gc [--dry-run] [--min-age-hours N] [--drop-refs-older-than-days N] [--local] [--persist-to DIR] [--config PATH]
      Retention: delete the commits no ref points to and the shards no manifest uses.`;

/** Runs the command `argv` names with `actions` (the real ones unless a test records them); the exit code. */
export async function main(argv: string[], actions: IndexerActions = INDEXER_ACTIONS): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'build':
        return await build(rest, actions);
      case 'review':
        return await review(rest, actions);
      case 'publish':
        return await actions.publish(rest);
      case 'gc':
        return await actions.gc(rest);
      case undefined:
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        return usageError(`unknown command "${command}".`, 'Use one of the commands below.', USAGE);
    }
  } catch (error) {
    if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      return usageError(error.message, 'See the usage below.', USAGE);
    }
    process.stderr.write(`${cliLine(error)}\n`);
    return 1;
  }
}

async function build(argv: string[], actions: IndexerActions): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      commit: { type: 'string', default: 'HEAD' },
      repo: { type: 'string', default: '.' },
      out: { type: 'string' },
      'repo-name': { type: 'string' },
      'max-file-bytes': { type: 'string', default: String(1024 * 1024) },
      from: { type: 'string' },
      'from-ref': { type: 'string' },
      'from-commit': { type: 'string' },
      local: { type: 'boolean', default: false },
      'persist-to': { type: 'string' },
      config: { type: 'string' },
      'max-changed-share': { type: 'string' },
      scip: { type: 'string', multiple: true },
      'no-auto-scip': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const maxFileBytes = Number(values['max-file-bytes']);
  if (!Number.isInteger(maxFileBytes) || maxFileBytes <= 0) {
    return usageError(`--max-file-bytes must be a positive integer, got "${values['max-file-bytes']}".`, 'Pass a byte count such as 1048576.');
  }
  const sources = (['from', 'from-ref', 'from-commit'] as const).filter((name) => values[name] !== undefined);
  if (sources.length > 1) return usageError(`--${sources.join(' and --')} name two indexes to build from.`, 'Pass one of --from, --from-ref, --from-commit.');
  const published = values['from-ref'] !== undefined || values['from-commit'] !== undefined;
  if (!published && (values.local || values['persist-to'] !== undefined || values.config !== undefined)) {
    return usageError('--local, --persist-to and --config name the store of --from-ref or --from-commit.', 'Add --from-ref NAME or --from-commit SHA, or drop them.');
  }
  const share = values['max-changed-share'];
  if (share !== undefined && (sources.length === 0 || !/^(0(\.\d+)?|1(\.0+)?)$/.test(share))) {
    return usageError(sources.length === 0 ? '--max-changed-share needs --from.' : `--max-changed-share must be a share from 0 to 1, got "${share}".`, 'Pass --from DIR and a share such as 0.5.');
  }
  await actions.build({
    ...(values.from !== undefined ? { from: values.from } : {}),
    ...(values['from-ref'] !== undefined ? { fromPublished: { ref: values['from-ref'] } } : {}),
    ...(values['from-commit'] !== undefined ? { fromPublished: { commit: values['from-commit'] } } : {}),
    ...(published ? { store: { local: values.local, ...(values['persist-to'] !== undefined ? { 'persist-to': values['persist-to'] } : {}), ...(values.config !== undefined ? { config: values.config } : {}) } } : {}),
    ...(share !== undefined ? { maxChangedShare: Number(share) } : {}),
    ...(values.scip !== undefined ? { scip: values.scip } : {}),
    ...(values['no-auto-scip'] ? { autoScip: false } : {}),
    repo: values.repo,
    commit: values.commit,
    out: values.out,
    repoName: values['repo-name'],
    maxFileBytes,
    quiet: values.quiet,
    verbose: values.verbose,
  });
  return 0;
}

async function review(argv: string[], actions: IndexerActions): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: 'string' },
      head: { type: 'string', default: 'HEAD' },
      repo: { type: 'string', default: '.' },
      format: { type: 'string', default: 'markdown' },
      'out-root': { type: 'string' },
      'max-file-bytes': { type: 'string', default: String(1024 * 1024) },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.base === undefined) {
    return usageError('review needs --base.', 'Pass the commit the change starts from, such as --base origin/main.');
  }
  const format = REVIEW_FORMATS.find((f) => f === values.format);
  if (format === undefined) {
    return usageError(`--format must be one of ${REVIEW_FORMATS.join(', ')}, got "${values.format}".`, 'Pass --format markdown.');
  }
  const maxFileBytes = Number(values['max-file-bytes']);
  if (!Number.isInteger(maxFileBytes) || maxFileBytes <= 0) {
    return usageError(`--max-file-bytes must be a positive integer, got "${values['max-file-bytes']}".`, 'Pass a byte count such as 1048576.');
  }
  await actions.review({
    base: values.base, head: values.head, repo: values.repo, outRoot: values['out-root'], maxFileBytes, quiet: values.quiet, format,
  });
  return 0;
}

/** A mistake on the command line: its line (and the usage, when it helps), exit code 2. */
function usageError(message: string, hint: string, usage?: string): number {
  process.stderr.write(`${cliLine(new SextantError('INVALID_ARGUMENT', message, hint))}\n${usage === undefined ? '' : `${usage}\n`}`);
  return 2;
}
