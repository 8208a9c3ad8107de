// How the runner's commands report a failure of the operating system: a real errno from the file
// system is IO_ERROR naming the path and the errno, with a hint (errors.ts' ioErrorOf, the one
// classification); only what is neither a SextantError nor the machine refusing is called a bug.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ioErrorOf, SextantError } from '@sextant/format';
import { reportError } from '../src/commands/cli-errors.ts';

function failure(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

function reported(error: unknown): string {
  const chunks: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  expect(reportError(error)).toBe(1);
  vi.restoreAllMocks();
  return chunks.join('');
}

afterEach(() => vi.restoreAllMocks());

describe('reportError', () => {
  it('reports a real operating-system failure as IO_ERROR with the path, the errno and a hint', () => {
    const path = `/${'x'.repeat(5000)}`;
    const error = failure(() => readFileSync(path));
    expect(reported(error)).toBe(`error: Cannot open ${path}: the path is too long for the file system (ENAMETOOLONG). To fix this, use a shorter path, then run the command again.\n`);
    expect(ioErrorOf(error)?.data).toEqual({ errno: 'ENAMETOOLONG', path, syscall: 'open' });
  });

  it('calls only the rest a bug: a missing file or a plain error, never a SextantError', () => {
    expect(ioErrorOf(failure(() => readFileSync('/nonexistent/sextant')))).toBeUndefined();
    expect(reported(new TypeError('x is undefined'))).toBe('error: x is undefined. To fix this, report this bug in Sextant with the command that caused it.\n');
    expect(reported(new SextantError('CONFLICT', 'Stale.', 'Plan again.'))).toBe('error: Stale. To fix this, plan again.\n');
  });
});
