// `runner mcp [--index DIR] [--repo DIR]`: the tool registry over stdio from a local index; it
// listens on nothing else. With --repo, the write tools (two-phase refactorings applied to that
// working tree) are served next to the read tools, after any interrupted apply was recovered.
// Every plan it hands out is signed with this user's runner key, unless the index came with the
// repository (index-provenance.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSextantServer, READ_TOOLS } from '@sextant/mcp';
import { LocalIndexProvider } from '../local-index-provider.ts';
import { RefactorContext } from '../planning/refactor-context.ts';
import { writeTools } from '../tools/write-tools.ts';
import { reportError } from './cli-errors.ts';
import { recoverIfNeeded } from './recover-command.ts';
import { planSignerFor } from '../trust/index-provenance.ts';

const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export async function mcpCommand(values: { index: string; repo?: string }): Promise<number> {
  const indexDir = resolve(values.index);
  const provider = new LocalIndexProvider(indexDir, values.repo ? resolve(values.repo) : undefined);
  let tools = READ_TOOLS;
  let planSigner: ReturnType<typeof planSignerFor>;
  // Fail at start, not at the first call, when there is no usable index.
  try {
    const reader = await provider.open();
    planSigner = planSignerFor(indexDir, (line) => process.stderr.write(`${line}\n`));
    if (values.repo) {
      const ctx = await RefactorContext.open(resolve(values.repo), indexDir);
      await recoverIfNeeded(ctx.jail);
      tools = [...READ_TOOLS, ...writeTools(ctx)];
    }
    process.stderr.write(`sextant runner: serving ${reader.repo}@${reader.commit.slice(0, 12)} from ${indexDir} over stdio${values.repo ? `, refactoring ${resolve(values.repo)}` : ''}\n`);
  } catch (error) {
    return reportError(error);
  }
  const server = createSextantServer(provider, { name: 'sextant-runner', version: VERSION }, { tools, planSigner });
  await server.connect(new StdioServerTransport());
  await new Promise<void>((done) => {
    server.onclose = () => done();
  });
  return 0;
}
