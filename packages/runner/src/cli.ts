// The `runner` command line. `runner mcp` serves the tool registry over stdio from a local index;
// it listens on nothing else.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSextantServer } from '@sextant/mcp';
import { LocalIndexProvider } from './local-index-provider.ts';

const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

const USAGE = `usage:
  runner mcp [--index DIR] [--repo DIR]
      Serve Sextant's MCP tools over stdio from a local index (default .sextant/index).
      --repo lets \`commit\` arguments name refs (resolved with git).`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'mcp') return mcp(rest);
  if (command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  process.stderr.write(`error: ${command ? `unknown command "${command}"` : 'no command given'}. To fix this, use one of the commands below.\n${USAGE}\n`);
  return 2;
}

async function mcp(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { index: { type: 'string', default: '.sextant/index' }, repo: { type: 'string' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}. To fix this, see the usage below.\n${USAGE}\n`);
    return 2;
  }
  const provider = new LocalIndexProvider(resolve(values.index), values.repo ? resolve(values.repo) : undefined);
  // Fail at start, not at the first call, when there is no usable index.
  try {
    const reader = await provider.open();
    process.stderr.write(`sextant runner: serving ${reader.repo}@${reader.commit.slice(0, 12)} from ${resolve(values.index)} over stdio\n`);
  } catch (error) {
    const e = error as { message: string; hint?: string };
    process.stderr.write(`error: ${e.message}${e.hint ? ` To fix this, ${e.hint.charAt(0).toLowerCase()}${e.hint.slice(1)}` : ''}\n`);
    return 1;
  }
  const server = createSextantServer(provider, { name: 'sextant-runner', version: VERSION });
  await server.connect(new StdioServerTransport());
  await new Promise<void>((done) => {
    server.onclose = () => done();
  });
  return 0;
}
