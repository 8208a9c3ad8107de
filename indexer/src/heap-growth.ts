// How far V8 lets the JS heap grow past what its last full collection left live, while a build
// indexes Java or Kotlin. V8 sets the limit after each collection at up to four times the live size
// when the program allocates fast, as the JVM resolver does (a model, a scope, a type per name):
// java.base's build peaked at 2.0 GB of RSS with 0.72 GB live (issue #32). A build asks for a fixed
// factor from its Java and Kotlin files on, and V8's own returns when the build ends. TypeScript and
// JavaScript, indexed before them, keep V8's: the compiler's live heap dominates there, so a fixed
// factor saves little and costs much (effect, 570 files: 8 % less RSS for 10 % more CPU at 50 %, 28
// % at 20 %).
//
// Measured on java.base (3,102 files) with `/usr/bin/time -v indexer build`, one run each:
//
// | heap growth | peak RSS | user CPU |
// | --- | --- | --- |
// | V8's own | 1,998 MB | 36.3 s |
// | 50 % (flag) | 1,246 MB | 40.2 s |
// | 30 % (this hold) | 1,197 MB | 45.9 s |
// | 20 % (flag) | 1,128 MB | 46.0 s |
//
// V8 reads the factor at every collection, so a flag set while the process runs
// (`v8.setFlagsFromString`) takes effect at the next one, as measured above. The flag is the
// process's and the count of holds is this thread's: builds on several threads of one process (a
// test runner's workers) may end one another's hold early, which changes only when V8 collects.
import { setFlagsFromString } from 'node:v8';

/** The heap may grow to (1 + this / 100) times the live size after a full collection. */
export const JVM_HEAP_GROWING_PERCENT = 30;

let holders = 0;

/**
 * Holds the heap's growth to `percent` (0 or less: no hold) until the returned function is called
 * (once; later calls do nothing). Holds share one setting (the first's), and V8's own dynamic factor
 * returns when the last one is released.
 */
export function holdHeapGrowth(percent: number): () => void {
  if (percent <= 0) return () => {};
  if (holders++ === 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--holders === 0) setFlagsFromString('--heap-growing-percent=0');
  };
}
