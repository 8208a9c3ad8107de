// What a model pays for in every session before its first call: the tools/list entries as a host
// passes them on (name, description, annotations, input schema; a host validates the output schema
// but does not show it) and the server's instructions, as UTF-8 bytes of their JSON. One measure
// for the in-process server test and the end-to-end listings of the worker and the runner.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Bytes (about 3k tokens): issue #15's budget for every read-only server's listing. */
export const TOOLS_LIST_BUDGET = 12_000;

const utf8 = new TextEncoder();

export function modelFacingBytes(tools: readonly Tool[], instructions: string | undefined): number {
  const shown = tools.map(({ outputSchema: _output, ...rest }) => rest);
  return utf8.encode(JSON.stringify(shown)).length + utf8.encode(instructions ?? '').length;
}
