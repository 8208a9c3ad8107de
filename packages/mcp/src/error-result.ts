// The one place where failures become MCP answers: a SextantError is a tool result with
// isError and a structured { code, message, hint }; a failure of the operating system is IO_ERROR
// (the runner's write tools meet them); anything else is INTERNAL, never a silent empty answer.
// Malformed arguments never get here: they are protocol errors.
import { ioErrorOf, isSextantError } from '@sextant/format';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { renderSymbol } from './render.ts';

export function errorResult(thrown: unknown): CallToolResult {
  const error = ioErrorOf(thrown) ?? thrown;
  const structured = isSextantError(error)
    ? { code: error.code, message: error.message, hint: error.hint, ...(error.data ? { data: error.data } : {}) }
    : {
        code: 'INTERNAL' as const,
        message: `Internal error: ${error instanceof Error ? error.message : String(error)}`,
        hint: 'This is a bug in Sextant; report it with the call that caused it.',
      };
  // Symbol candidates (AMBIGUOUS_SYMBOL); other errors' candidates (commits of an ambiguous sha prefix) are in their message.
  const candidates = ((structured as { data?: { candidates?: unknown[] } }).data?.candidates ?? [])
    .filter((c): c is Parameters<typeof renderSymbol>[0] => typeof c === 'object' && c !== null && 'symbolId' in c);
  const text = [
    `${structured.code}: ${structured.message}`,
    ...candidates.map((c) => `  ${renderSymbol(c)}`),
    `hint: ${structured.hint}`,
  ].join('\n');
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { error: structured } };
}
