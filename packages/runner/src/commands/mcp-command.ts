// `runner mcp [--index DIR]... [--index-root DIR] [--repo DIR]`: the tool registry over stdio from
// local indexes of one repository, one per commit (a call's `commit` picks one; a call naming none
// gets the default, said at start); it listens on nothing else. With --repo, refs are resolved
// with git there, and the write tools (two-phase refactorings applied to that working tree, planned
// from the default index) are served next to the read tools, after any interrupted apply was
// recovered. A plan is signed with this user's runner key unless the index it was made from came
// with a repository (index-provenance.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { READ_TOOLS } from '@sextant/mcp';
import { createSextantServer } from '@sextant/mcp/sdk-server';
import { shortCommit } from '@sextant/format';
import { defaultIndexOf } from '../default-index.ts';
import { LocalIndexProvider } from '../local-index-provider.ts';
import { RefactorContext } from '../planning/refactor-context.ts';
import { writeTools } from '../tools/write-tools.ts';
import { reportError } from './cli-errors.ts';
import { recoverIfNeeded } from './recover-command.ts';
import { planSignerForIndexes } from '../trust/index-provenance.ts';

const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export interface McpOptions {
  /** --index, in the order given; none and no indexRoot: the working tree's default (default-index.ts). */
  index: string[];
  'index-root'?: string;
  repo?: string;
}

export async function mcpCommand(values: McpOptions): Promise<number> {
  const repo = values.repo === undefined ? undefined : resolve(values.repo);
  const indexRoot = values['index-root'];
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  let tools = READ_TOOLS;
  let planSigner: ReturnType<typeof planSignerForIndexes>;
  let provider: LocalIndexProvider;
  // Fail at start, not at the first call, when there is no usable index (or a set no server can serve).
  try {
    let indexes = values.index;
    let firstReason: string | undefined;
    if (indexes.length === 0 && indexRoot === undefined) {
      const found = await defaultIndexOf(repo ?? process.cwd());
      if (found.note) warn(found.note);
      indexes = [found.dir];
      firstReason = 'no --index given';
    }
    provider = new LocalIndexProvider({ indexes, indexRoot, repoDir: repo, firstReason });
    const { index, reason } = await provider.start();
    const defaultDir = index.source.where;
    planSigner = planSignerForIndexes([defaultDir], (commit) => provider.indexDirOf(commit), warn);
    if (repo) {
      // Plans are made from the default index: the one a call naming no commit is answered from.
      const ctx = await RefactorContext.open(repo, defaultDir);
      await recoverIfNeeded(ctx.jail);
      tools = [...READ_TOOLS, ...writeTools(ctx)];
    }
    const served = provider.known();
    const others = served.length - 1;
    process.stderr.write(`sextant runner: serving ${index.repo}@${shortCommit(index.commit)} from ${defaultDir} (the default: ${reason})`
      + `${others > 0 ? ` and ${others} other commit${others === 1 ? '' : 's'} (${served.filter((i) => i !== index).map((i) => shortCommit(i.commit)).join(', ')})` : ''}`
      + `${indexRoot !== undefined ? `, indexes in ${resolve(indexRoot)} picked up as they appear` : ''} over stdio${repo ? `, refactoring ${repo}` : ''}\n`);
  } catch (error) {
    return reportError(error);
  }
  const server = createSextantServer(provider, { name: 'sextant-runner', version: VERSION }, { tools, planSigner });
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  await server.connect(new StdioServerTransport());
  // A client stops a stdio server by closing its stdin; the SDK's transport does not watch for
  // that, so the server is closed here and the command ends with 0, as asked.
  process.stdin.once('end', () => void server.close());
  await closed;
  process.stderr.write('sextant runner: stdin closed, stopped\n');
  return 0;
}
