// The version of the TypeScript compiler the indexer resolves with (ts-morph's bundled copy), read
// from the compiler's source rather than by loading it: every manifest records it (parsers), and a
// build with nothing to compile must not load 80 MB of compiler to say which one it would have used.
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The compiler declares its version near its start (corePublic.ts): `var version = "6.0.2";`. */
const VERSION = /\bvar version = "([^"]+)"/;
/** How far into the compiler's source the declaration is looked for (it is at 122 KiB in TypeScript 6.0). */
const HEAD_BYTES = 1 << 20;

let version: string | undefined;

export function typescriptVersion(): string {
  return (version ??= readVersion());
}

function readVersion(): string {
  const require = createRequire(import.meta.url);
  const compiler = join(dirname(require.resolve('@ts-morph/common')), 'typescript.js');
  // Only the head is read: the whole compiler is 9 MB, and every build asks.
  const buffer = Buffer.alloc(HEAD_BYTES);
  const fd = openSync(compiler, 'r');
  let read: number;
  try {
    read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const head = buffer.subarray(0, read).toString('latin1');
  const found = VERSION.exec(head)?.[1];
  if (!found) throw new Error(`the TypeScript compiler at ${compiler} declares no version in its first ${HEAD_BYTES} bytes (an update of ts-morph moved it: see compiler-version.ts)`);
  return found;
}
