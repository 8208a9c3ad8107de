// The `indexer` command line: `build`, `review`, `publish` and `gc`. Errors print what went wrong and how to fix it.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { isSextantError } from '@sextant/format';
import { buildIndex } from './build-command.ts';
import { Progress } from './progress.ts';

const USAGE = `usage:
  indexer build [--commit <sha|ref>] [--repo DIR] [--out DIR] [--repo-name owner/name] [--max-file-bytes N] [--quiet] [--verbose]
      Index the files tracked at a commit (default HEAD of the repository at --repo, default .)
      into a directory of shards (default .sextant/index, added to .git/info/exclude). Warnings
      about project configuration are counted in one line; --verbose prints each.
  indexer review --base <sha|ref> [--head <sha|ref>] [--repo DIR] [--format markdown|text|json] [--out-root DIR] [--max-file-bytes N] [--quiet]
      What the change from base to head (default HEAD) does to the symbols and what it breaks
      (the diff_symbols and change_impact tools). Each commit is indexed into
      <out-root>/<sha>/ (default <repo>/.sextant/indexes, added to .git/info/exclude) unless a
      complete index of it is there already. Default format: markdown.
  indexer publish [--out DIR] [--repo-name owner/name] [--ref NAME] [--default] [--verify] [--force] [--local] [--persist-to DIR] [--config PATH]
      Upload an index to R2 (--local: wrangler's local R2 used by \`wrangler dev\`); --verify reads every shard back.
  indexer gc [--dry-run] [--min-age-hours N] [--drop-refs-older-than-days N] [--local] [--persist-to DIR] [--config PATH]
      Retention: delete the commits no ref points to and the shards no manifest uses.`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'build':
        return await build(rest);
      case 'review':
        return await review(rest);
      case 'publish': {
        const { publishCommand } = await import('./publish/publish-command.ts');
        return await publishCommand(rest);
      }
      case 'gc': {
        const { gcCommand } = await import('./publish/gc-command.ts');
        return await gcCommand(rest);
      }
      case undefined:
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        process.stderr.write(`error: unknown command "${command}". To fix this, use one of the commands below.\n${USAGE}\n`);
        return 2;
    }
  } catch (error) {
    if (isSextantError(error)) {
      process.stderr.write(`error: ${error.message} To fix this, ${lowerFirst(error.hint)}\n`);
      return 1;
    }
    if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${error.message}. To fix this, see the usage below.\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}

async function build(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      commit: { type: 'string', default: 'HEAD' },
      repo: { type: 'string', default: '.' },
      out: { type: 'string' },
      'repo-name': { type: 'string' },
      'max-file-bytes': { type: 'string', default: String(1024 * 1024) },
      quiet: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const maxFileBytes = Number(values['max-file-bytes']);
  if (!Number.isInteger(maxFileBytes) || maxFileBytes <= 0) {
    process.stderr.write(`error: --max-file-bytes must be a positive integer, got "${values['max-file-bytes']}". To fix this, pass a byte count such as 1048576.\n`);
    return 2;
  }
  await buildIndex({
    repo: resolve(values.repo),
    commit: values.commit,
    out: resolve(values.out ?? `${values.repo}/.sextant/index`),
    repoName: values['repo-name'],
    maxFileBytes,
    progress: new Progress(process.stderr, values.quiet),
    verbose: values.verbose,
  });
  return 0;
}

async function review(argv: string[]): Promise<number> {
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
    process.stderr.write('error: review needs --base. To fix this, pass the commit the change starts from, such as --base origin/main.\n');
    return 2;
  }
  const { REVIEW_FORMATS, prepareReview, reviewOutput } = await import('./review-command.ts');
  const format = REVIEW_FORMATS.find((f) => f === values.format);
  if (format === undefined) {
    process.stderr.write(`error: --format must be one of ${REVIEW_FORMATS.join(', ')}, got "${values.format}". To fix this, pass --format markdown.\n`);
    return 2;
  }
  const maxFileBytes = Number(values['max-file-bytes']);
  if (!Number.isInteger(maxFileBytes) || maxFileBytes <= 0) {
    process.stderr.write(`error: --max-file-bytes must be a positive integer, got "${values['max-file-bytes']}". To fix this, pass a byte count such as 1048576.\n`);
    return 2;
  }
  const prepared = await prepareReview({
    base: values.base, head: values.head, repo: values.repo, outRoot: values['out-root'], maxFileBytes,
    progress: new Progress(process.stderr, values.quiet),
  });
  process.stdout.write(await reviewOutput(prepared, format));
  return 0;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
