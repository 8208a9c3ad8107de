// `indexer gc`: retention for the bucket the worker reads (or, with --local, wrangler's local R2).
// Deletes the commits no ref points to and the shards no manifest uses; optionally refs (other than
// a default ref, by default only pull requests') not published for a number of days.
import { parseArgs } from 'node:util';
import { isSextantError } from '@sextant/format';
import { collectGarbage } from './collect-garbage.ts';
import { openWranglerStore, type ObjectStore, type WranglerStoreOptions } from './object-store.ts';
import { type PublishIo, STDIO } from './publish-command.ts';
import { STORE_OPTIONS, storeOptionsFrom } from './store-options.ts';
import { formatBytes } from './publish-index.ts';

export const GC_USAGE = `usage: indexer gc [--dry-run] [--min-age-hours N] [--drop-refs-older-than-days N [--refs GLOB]...]
                  [--local] [--persist-to DIR] [--config PATH]
  --dry-run                          print what would be deleted, delete nothing
  --min-age-hours N                  keep objects uploaded in the last N hours (default 24), so a
                                     publish in progress is never cut short
  --drop-refs-older-than-days N      also delete refs last published more than N days ago, among
  --refs GLOB                        the refs matching GLOB (repeatable; default pull/**: merged or
                                     abandoned pull requests'); never a repository's default ref
  --local, --persist-to, --config    as for \`indexer publish\``;

const HOUR = 3_600_000;

export async function gcCommand(argv: string[], io: PublishIo = STDIO): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'dry-run': { type: 'boolean', default: false },
        'min-age-hours': { type: 'string', default: '24' },
        'drop-refs-older-than-days': { type: 'string' },
        refs: { type: 'string', multiple: true },
        ...STORE_OPTIONS,
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`error: ${(error as Error).message.replace(/\.?$/, '.')} To fix this, use the options below.\n${GC_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(GC_USAGE);
    return 0;
  }
  const minAgeHours = Number(values['min-age-hours']);
  const refDays = values['drop-refs-older-than-days'] === undefined ? undefined : Number(values['drop-refs-older-than-days']);
  if (!Number.isFinite(minAgeHours) || minAgeHours < 0) {
    io.err(`error: --min-age-hours must be a number of hours, got "${values['min-age-hours']}". To fix this, pass e.g. --min-age-hours 24.\n${GC_USAGE}`);
    return 2;
  }
  if (refDays !== undefined && (!Number.isFinite(refDays) || refDays <= 0)) {
    io.err(`error: --drop-refs-older-than-days must be a positive number of days, got "${values['drop-refs-older-than-days']}". To fix this, pass e.g. --drop-refs-older-than-days 30.\n${GC_USAGE}`);
    return 2;
  }
  if (values.refs !== undefined && refDays === undefined) {
    io.err(`error: --refs only chooses which refs --drop-refs-older-than-days may delete. To fix this, add --drop-refs-older-than-days N, or drop --refs.\n${GC_USAGE}`);
    return 2;
  }
  let storeOptions: WranglerStoreOptions;
  try {
    storeOptions = storeOptionsFrom(values);
  } catch (error) {
    if (!isSextantError(error)) throw error;
    io.err(`error: ${error.message} To fix this, ${error.hint}\n${GC_USAGE}`);
    return 2;
  }

  let store: ObjectStore | undefined;
  try {
    store = await openWranglerStore(storeOptions);
    const summary = await collectGarbage(store, {
      minAgeMs: minAgeHours * HOUR, refMaxAgeMs: refDays === undefined ? undefined : refDays * 24 * HOUR, refGlobs: values.refs,
      dryRun: values['dry-run'], log: io.out,
    });
    for (const ref of summary.refsDeleted) io.out(`  ref ${ref}`);
    for (const commit of summary.commitsDeleted) io.out(`  commit ${commit}`);
    io.out(`${values['dry-run'] ? 'would delete' : 'deleted'} ${summary.refsDeleted.length} refs, ${summary.commitsDeleted.length} commits and ${summary.shardsDeleted} shards (${formatBytes(summary.bytesFreed)}) in ${store.description}; kept ${summary.commitsKept} commits and ${summary.shardsKept} shards`);
    return 0;
  } catch (error) {
    if (isSextantError(error)) {
      io.err(`error: ${error.message.replace(/\.?$/, '.')} To fix this, ${error.hint.charAt(0).toLowerCase()}${error.hint.slice(1)}`);
      return 1;
    }
    io.err(`error: retention failed: ${error instanceof Error ? error.message : String(error)} To fix this, check the message; rerun with --dry-run to see what it would do.`);
    return 1;
  } finally {
    await store?.close();
  }
}
