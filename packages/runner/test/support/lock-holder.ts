// A runner of its own (a separate process, so a pid and lock of its own) that takes the lock of the
// tree named by argv[2] on a `lock` line, for tests of several runners at once. It prints `locked`
// or the error code it got; on a `release` line it releases the lock and prints `released`; it
// exits when stdin ends.
import { createInterface } from 'node:readline';
import { PathJail } from '../../src/apply/path-jail.ts';
import { lockRepository } from '../../src/apply/repo-lock.ts';
import { openStateDir } from '../../src/apply/state-dir.ts';

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const quiet = () => undefined;
const state = await openStateDir(await PathJail.open(process.argv[2]!), quiet);
process.stdout.write('ready\n');
while ((await lines.next()).value !== 'lock') {
  // wait for the test to say when
}
try {
  const lock = await lockRepository(state, quiet);
  process.stdout.write('locked\n');
  for (let line = await lines.next(); !line.done; line = await lines.next()) {
    if (line.value !== 'release') continue;
    await lock.release();
    process.stdout.write('released\n');
    break;
  }
} catch (error) {
  process.stdout.write(`${(error as { code?: string }).code ?? String(error)}\n`);
}
for (let line = await lines.next(); !line.done; line = await lines.next()) {
  // stay alive, as a long-lived `runner mcp` does, until the test lets go
}
