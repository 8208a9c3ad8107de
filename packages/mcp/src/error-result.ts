// The one place where failures become MCP answers: a SextantError is a tool result with
// isError and a structured { code, message, hint }; a failure of the operating system is IO_ERROR
// (the runner's write tools meet them); anything else is INTERNAL, never a silent empty answer.
// Malformed arguments never get here: they are protocol errors.
import { ioErrorOf, isSextantError } from '@sextant/format';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function errorResult(thrown: unknown): CallToolResult {
  const error = ioErrorOf(thrown) ?? thrown;
  const structured = isSextantError(error)
    ? { code: error.code, message: error.message, hint: error.hint, ...(error.data ? { data: error.data } : {}) }
    : {
        code: 'INTERNAL' as const,
        message: `Internal error: ${error instanceof Error ? error.message : String(error)}`,
        hint: 'This is a bug in Sextant; report it with the call that caused it.',
      };
  const candidates = (structured as { data?: { candidates?: { symbolId: string; kind: string; qualifiedName: string; path?: string; line?: number; column?: number }[] } })
    .data?.candidates ?? [];
  const text = [
    `${structured.code}: ${structured.message}`,
    ...candidates.map((c) => `  ${c.kind} ${c.qualifiedName} ${c.path}:${c.line}:${c.column} ${c.symbolId}`),
    `hint: ${structured.hint}`,
  ].join('\n');
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { error: structured } };
}
