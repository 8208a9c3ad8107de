#!/usr/bin/env node
// The `runner` command: the TypeScript sources run through tsx's loader; no build step.
import { register } from 'tsx/esm/api';

// A file size limit (ulimit -f) must make a write fail with EFBIG, reported as IO_ERROR after the
// apply rolled back, not kill the runner with SIGXFSZ halfway through an apply.
process.on('SIGXFSZ', () => {});
register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
