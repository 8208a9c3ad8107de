// `indexer publish`: uploads an index directory to R2 (or, with --local, to the local R2 that
// `wrangler dev` serves), then points a ref at it. Prints one line per phase and a summary; errors
// print their cliLine ("error: <what>. To fix this, <what to do>") and return a non-zero exit code.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cliLine, isSextantError, parseRepoName, sameCommit, SextantError, shortCommit } from '@sextant/format';
import { openWranglerStore, type ObjectStore } from './object-store.ts';
import { STORE_OPTIONS, storeOptionsFrom, usage } from './store-options.ts';
import { formatBytes, publishIndex } from './publish-index.ts';
import { readIndexDirectory } from './read-index.ts';

export const PUBLISH_USAGE = `usage: indexer publish [--out DIR] [--repo-name owner/repo] [--ref NAME] [--default] [--verify] [--force]
                       [--local] [--persist-to DIR] [--config PATH]
  --out DIR          index directory written by \`indexer build\` (default .sextant/index)
  --repo-name NAME   publish under owner/repo (default: the manifest's repo)
  --ref NAME         point this ref (branch or tag name) at the published commit
  --default          make --ref the repository's default ref (it is also made default when the repository has none)
  --verify           read every shard of the commit back from R2 and upload again the ones that do not hash to
                     their name (without it, a shard is skipped when the sha256 R2 recorded for it is its name)
  --force            move --ref even when another publish moved it to a newer commit (by commit date) while this one ran
  --local            write to wrangler's local R2, the storage \`wrangler dev\` serves, instead of the real bucket
  --persist-to DIR   with --local: wrangler's persistence directory (default: <config dir>/.wrangler/state, as \`wrangler dev\`)
  --config PATH      the Sextant worker's wrangler config, whose R2 binding INDEX names the bucket
                     (default: workers/mcp/wrangler.jsonc in the current directory or the nearest one above it
                     that has it, as inside a Sextant checkout)`;

export interface PublishIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export const STDIO: PublishIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

export async function publishCommand(argv: string[], io: PublishIo = STDIO): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        out: { type: 'string', default: '.sextant/index' },
        'repo-name': { type: 'string' },
        ref: { type: 'string' },
        default: { type: 'boolean', default: false },
        verify: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        ...STORE_OPTIONS,
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`${cliLine(usage((error as Error).message, 'Use the options below.'))}\n${PUBLISH_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(PUBLISH_USAGE);
    return 0;
  }

  let store: ObjectStore | undefined;
  try {
    if (values.default && values.ref === undefined) {
      throw usage('--default needs --ref: it makes that ref the repository\'s default.', 'pass --ref <branch> with --default.');
    }
    if (values.force && values.ref === undefined) {
      throw usage('--force needs --ref: it moves that ref even when another publish moved it to a newer commit.', 'pass --ref <branch> with --force.');
    }
    const storeOptions = storeOptionsFrom(values);

    const dir = resolve(values.out);
    const index = await readIndexDirectory(dir);
    const repo = values['repo-name'] ?? index.manifest.repo;
    try {
      parseRepoName(repo);
    } catch (error) {
      throw values['repo-name'] === undefined
        ? usage(`The manifest names repository "${repo}", which is not of the form owner/name.`, 'pass --repo-name owner/name.')
        : error;
    }
    io.out(`verified ${dir}: ${repo}@${index.manifest.commit}, ${index.shards.length} shards, ${formatBytes(index.totalBytes)}`);

    io.out(values.local ? 'opening wrangler\'s local R2' : 'connecting to R2 with wrangler\'s credentials');
    store = await openWranglerStore(storeOptions);
    const summary = await publishIndex(store, index, {
      repo, ref: values.ref, makeDefault: values.default, verify: values.verify, force: values.force, log: io.out,
    });
    const refLine = summary.ref === undefined
      ? 'no ref given, reachable by sha only;'
      : summary.refCommit !== undefined && sameCommit(summary.refCommit, summary.commit)
        ? `ref ${summary.ref} -> ${shortCommit(summary.commit)};`
        : `ref ${summary.ref} left at the newer ${shortCommit(summary.refCommit!)} another publish wrote (--force moves it);`;

    io.out([
      `published ${summary.repo}@${summary.commit} to ${store.description} in ${summary.ms} ms:`,
      `${summary.uploadedObjects} objects uploaded (${formatBytes(summary.uploadedBytes)}),`,
      `${summary.skippedObjects} skipped as already present (${formatBytes(summary.skippedBytes)});`,
      refLine,
      summary.defaultRef ? `default ref ${summary.defaultRef}${summary.defaultChanged ? ' (set now)' : ''}` : 'no default ref',
    ].join(' '));
    return 0;
  } catch (error) {
    if (isSextantError(error)) {
      io.err(cliLine(error));
      return error.code === 'INVALID_ARGUMENT' && (error.data as { usage?: boolean } | undefined)?.usage ? 2 : 1;
    }
    // Not ours to name: R2, the network or the machine refused.
    io.err(cliLine(new SextantError('IO_ERROR', `publishing failed: ${error instanceof Error ? error.message : String(error)}`,
      'Check the message above; rerun with --local to rule out credentials and network.')));
    return 1;
  } finally {
    await store?.close();
  }
}

