// Calls one tool of the hosted Sextant MCP (the worker's /mcp/<owner>/<repo>, Streamable HTTP) with
// a bearer token, and prints its answer: the markdown `content` when the tool gives one, else the
// text the server rendered. Used by sextant-review.yml; run it from the Sextant checkout so that
// the MCP SDK resolves from its node_modules:
//   SEXTANT_MCP_URL=https://sextant-mcp.example.workers.dev SEXTANT_TOKEN=… \
//     node sextant-mcp-call.mjs acme/widgets change_impact '{"base":"<sha>","head":"<sha>","format":"markdown"}'
// Exit codes: 0 answered; 3 the tool answered COMMIT_NOT_INDEXED (nothing published for a commit);
// 1 any other failure (its message on stderr).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [repo, tool, json = '{}'] = process.argv.slice(2);
const { SEXTANT_MCP_URL: url, SEXTANT_TOKEN: token } = process.env;
if (!repo || !tool || !url || !token) {
  process.stderr.write('error: usage: SEXTANT_MCP_URL=… SEXTANT_TOKEN=… node sextant-mcp-call.mjs <owner/repo> <tool> [<arguments as JSON>]\n');
  process.exit(2);
}

const transport = new StreamableHTTPClientTransport(new URL(`/mcp/${repo}`, url), {
  requestInit: { headers: { authorization: `Bearer ${token}` } },
});
const client = new Client({ name: 'sextant-review-action', version: '1.0.0' });
try {
  await client.connect(transport);
  const result = await client.callTool({ name: tool, arguments: JSON.parse(json) });
  const text = (result.content ?? []).filter((part) => part.type === 'text').map((part) => part.text).join('\n');
  if (result.isError) {
    process.stderr.write(`error: ${text}\n`);
    process.exitCode = result.structuredContent?.error?.code === 'COMMIT_NOT_INDEXED' ? 3 : 1;
  } else {
    const markdown = result.structuredContent?.content;
    process.stdout.write(`${typeof markdown === 'string' ? markdown : text}\n`);
  }
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await client.close();
}
