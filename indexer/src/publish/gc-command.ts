// `indexer gc`: retention for the bucket the worker reads (or, with --local, wrangler's local R2).
// Deletes the commits no ref points to and the shards no manifest uses; optionally refs (other than
// a default ref, by default only pull requests') not published for a number of days.
import { parseArgs } from 'node:util';
import { cliLine, isSextantError, SextantError } from '@sextant/format';
import { collectGarbage } from './collect-garbage.ts';
import { openWranglerStore, type ObjectStore, type WranglerStoreOptions } from './object-store.ts';
import { type PublishIo, STDIO } from './publish-command.ts';
import { STORE_OPTIONS, storeOptionsFrom, usage } from './store-options.ts';
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
    return usageError(io, usage((error as Error).message, 'Use the options below.'));
  }
  if (values.help) {
    io.out(GC_USAGE);
    return 0;
  }
  const minAgeHours = Number(values['min-age-hours']);
  const refDays = values['drop-refs-older-than-days'] === undefined ? undefined : Number(values['drop-refs-older-than-days']);
  if (!Number.isFinite(minAgeHours) || minAgeHours < 0) {
    return usageError(io, usage(`--min-age-hours must be a number of hours, got "${values['min-age-hours']}".`, 'Pass e.g. --min-age-hours 24.'));
  }
  if (refDays !== undefined && (!Number.isFinite(refDays) || refDays <= 0)) {
    return usageError(io, usage(`--drop-refs-older-than-days must be a positive number of days, got "${values['drop-refs-older-than-days']}".`, 'Pass e.g. --drop-refs-older-than-days 30.'));
  }
  if (values.refs !== undefined && refDays === undefined) {
    return usageError(io, usage('--refs only chooses which refs --drop-refs-older-than-days may delete.', 'Add --drop-refs-older-than-days N, or drop --refs.'));
  }
  let storeOptions: WranglerStoreOptions;
  try {
    storeOptions = storeOptionsFrom(values);
  } catch (error) {
    if (!isSextantError(error)) throw error;
    return usageError(io, error);
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
    // What is not ours to name (R2, the network or the machine refused) says where it happened.
    io.err(cliLine(isSextantError(error) ? error : new SextantError('IO_ERROR', `retention failed: ${error instanceof Error ? error.message : String(error)}`,
      'Check the message; rerun with --dry-run to see what it would do.')));
    return 1;
  } finally {
    await store?.close();
  }
}

/** A mistake on the command line: its line and the usage, exit code 2. */
function usageError(io: PublishIo, error: SextantError): number {
  io.err(`${cliLine(error)}\n${GC_USAGE}`);
  return 2;
}
