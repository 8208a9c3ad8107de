#!/usr/bin/env node
// The `runner` command: the TypeScript sources run through tsx's loader; no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
