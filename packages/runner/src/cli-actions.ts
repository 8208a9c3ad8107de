// What the `runner` commands do once their arguments are read. The command line takes these as a
// parameter (as scip-typescript's mainCommand(indexAction)), so its argument parsing is tested
// with recording actions, nothing planned or applied; RUNNER_ACTIONS are the real ones. Each loads
// its module only when run, so that `apply` and `recover` start without the compiler or the MCP SDK.
import type { OperationRequest } from './planning/operation-request.ts';
import type { ApplyCommandOptions } from './commands/apply-command.ts';
import type { McpOptions } from './commands/mcp-command.ts';
import type { RefactorValues } from './commands/refactor-arguments.ts';

export interface RunnerActions {
  mcp(options: McpOptions): Promise<number>;
  apply(planFile: string, options: ApplyCommandOptions): Promise<number>;
  trustAdd(input: string): Promise<number>;
  trustList(): Promise<number>;
  recover(repo: string): Promise<number>;
  refactor(request: OperationRequest, values: RefactorValues): Promise<number>;
}

export const RUNNER_ACTIONS: RunnerActions = {
  mcp: async (options) => (await import('./commands/mcp-command.ts')).mcpCommand(options),
  apply: async (planFile, options) => (await import('./commands/apply-command.ts')).applyCommand(planFile, options),
  trustAdd: async (input) => (await import('./commands/trust-command.ts')).trustAddCommand(input),
  trustList: async () => (await import('./commands/trust-command.ts')).trustListCommand(),
  recover: async (repo) => (await import('./commands/recover-command.ts')).recoverCommand(repo),
  refactor: async (request, values) => (await import('./commands/refactor-command.ts')).refactorCommand(request, values),
};
