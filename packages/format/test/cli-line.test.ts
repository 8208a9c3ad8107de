// cliLine, the one line a command prints for a failure: the message ends a sentence, the hint
// follows "To fix this," lower-first; a failure of the machine is IO_ERROR, anything else a bug.
import { describe, expect, it } from 'vitest';
import { cliLine, SextantError } from '../src/errors.ts';

describe('cliLine', () => {
  it('renders a SextantError as "error: <message> To fix this, <hint>"', () => {
    expect(cliLine(new SextantError('CONFLICT', 'Stale.', 'Plan again.'))).toBe('error: Stale. To fix this, plan again.');
    expect(cliLine(new SextantError('INVALID_ARGUMENT', 'review needs --base', 'pass --base.'))).toBe('error: review needs --base. To fix this, pass --base.');
  });

  it('keeps the case of a hint that opens with an acronym', () => {
    expect(cliLine(new SextantError('IO_ERROR', 'R2 refused.', 'R2 tokens expire; log in again.'))).toBe('error: R2 refused. To fix this, R2 tokens expire; log in again.');
    expect(cliLine(new SextantError('IO_ERROR', 'No token.', 'CLOUDFLARE_API_TOKEN must be set.'))).toBe('error: No token. To fix this, CLOUDFLARE_API_TOKEN must be set.');
  });

  it('names a failure of the operating system as IO_ERROR and anything else as a bug', () => {
    const tooLong = Object.assign(new Error('ENAMETOOLONG'), { code: 'ENAMETOOLONG', syscall: 'open', path: '/x' });
    expect(cliLine(tooLong)).toBe('error: Cannot open /x: the path is too long for the file system (ENAMETOOLONG). To fix this, use a shorter path, then run the command again.');
    expect(cliLine(new TypeError('x is undefined'))).toBe('error: x is undefined. To fix this, report this bug in Sextant with the command that caused it.');
    expect(cliLine('thrown text')).toBe('error: thrown text. To fix this, report this bug in Sextant with the command that caused it.');
  });
});
