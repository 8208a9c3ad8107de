// The `runner` command line. `runner mcp` serves the tool registry over stdio from a local index
// (it listens on nothing else); the refactoring commands plan a change in a working tree and print
// it with its diff; `runner apply` applies a plan a trusted key signed, all or nothing; `runner
// trust` manages those keys; `runner recover` finishes or undoes an apply a crash interrupted. This
// module reads the arguments; what each command does is an action (cli-actions.ts), loaded when run.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { RUNNER_ACTIONS, type RunnerActions } from './cli-actions.ts';
import { reportError, reportUsage } from './commands/cli-errors.ts';
import type { McpOptions } from './commands/mcp-command.ts';
import { REFACTOR_COMMANDS, REFACTOR_OPTIONS, requestOf } from './commands/refactor-arguments.ts';

const USAGE = `usage:
  runner mcp [--index DIR]... [--index-root DIR] [--repo DIR]
      Serve Sextant's MCP tools over stdio from local indexes of one repository, one per commit
      (default .sextant/index). --index may be given several times; --index-root serves every
      subdirectory holding a manifest.json (such as <repo>/.sextant/indexes, which \`indexer
      review\` fills), and finds one added later when a call names its commit. A call naming no
      commit is answered from the first --index, else the index of HEAD of --repo, else the
      newest commit. --repo lets \`commit\` arguments name refs (resolved with git), and adds the
      write tools (rename, safe_delete, move_symbol, inline, replace_symbol_body,
      insert_before_symbol, insert_after_symbol, reformat_file, organize_imports, apply_plan) for
      that working tree, planned from the default index.

  runner rename           TARGET --to NAME
  runner safe-delete      TARGET
  runner move             TARGET --to-file PATH
  runner inline           TARGET
  runner replace-body     TARGET (--text CODE | --text-file FILE)
  runner insert-before    TARGET (--text CODE | --text-file FILE)
  runner insert-after     TARGET (--text CODE | --text-file FILE)
  runner reformat         --file PATH
  runner organize-imports --file PATH
      Plan the change in the working tree and print the plan and its diff.
      TARGET: --symbol ID | --qualified-name Q | --name N | --path P --line L --column C
      Options: --repo DIR (default .), --index DIR (default <repo>/.sextant/index),
      --out FILE (save the plan), --json (print the plan as JSON), --apply (apply it now),
      --force (apply although the plan has conflicts).

  runner apply PLAN.json [--repo DIR] [--force] [--allow-unsigned] [--verbose]
      Apply a plan (from plan_rename, plan_safe_delete or --out): every file must be as the plan
      expects; all files are written or none. Prints who signed it and the files it creates,
      deletes or modifies first, and refuses a plan that neither this user's runner key nor a
      trusted key signed unless --allow-unsigned.

  runner trust add KEY|FILE
  runner trust list
      Trust the plans a key signs: an ed25519 public key (base64 or hex), or a file holding one,
      such as a worker's /.well-known/sextant-plan-keys answer saved with curl. Offline. Keys
      live in $XDG_CONFIG_HOME/sextant (default ~/.config/sextant) with this user's own key.

  runner recover [--repo DIR]
      Finish or undo an apply that was interrupted (every command above does this first).`;

/** Runs the command `argv` names with `actions` (the real ones unless a test records them); the exit code. */
export async function main(argv: string[], actions: RunnerActions = RUNNER_ACTIONS): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (command === 'mcp') {
      const values = parsed(rest, { index: { type: 'string', multiple: true, default: [] }, 'index-root': { type: 'string' }, repo: { type: 'string' } });
      if (typeof values === 'number') return values;
      return await actions.mcp(values as McpOptions);
    }
    if (command === 'apply') {
      const args = parsed(rest, {
        repo: { type: 'string', default: '.' }, force: { type: 'boolean' }, 'allow-unsigned': { type: 'boolean' }, verbose: { type: 'boolean' },
      }, true);
      if (typeof args === 'number') return args;
      const { positionals, ...values } = args as { positionals: string[]; repo: string; force?: boolean; 'allow-unsigned'?: boolean; verbose?: boolean };
      if (positionals.length !== 1) return reportUsage('apply takes exactly one plan file', USAGE);
      return await actions.apply(positionals[0]!, {
        repo: resolve(values.repo), force: values.force ?? false, allowUnsigned: values['allow-unsigned'] ?? false, verbose: values.verbose ?? false,
      });
    }
    if (command === 'trust') {
      const args = parsed(rest, {}, true);
      if (typeof args === 'number') return args;
      const [action, ...operands] = (args as { positionals: string[] }).positionals;
      if (action === 'add' && operands.length === 1) return await actions.trustAdd(operands[0]!);
      if (action === 'list' && operands.length === 0) return await actions.trustList();
      return reportUsage('trust takes `add KEY|FILE` or `list`', USAGE);
    }
    if (command === 'recover') {
      const values = parsed(rest, { repo: { type: 'string', default: '.' } });
      if (typeof values === 'number') return values;
      return await actions.recover(resolve((values as { repo: string }).repo));
    }
    const operation = command === undefined ? undefined : REFACTOR_COMMANDS[command];
    if (operation) {
      const values = parsed(rest, REFACTOR_OPTIONS);
      if (typeof values === 'number') return values;
      return await actions.refactor(requestOf(operation, values), values);
    }
  } catch (error) {
    return reportError(error);
  }
  return reportUsage(command ? `unknown command "${command}"` : 'no command given', USAGE);
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** Parsed flags (and positionals when allowed), or the exit code of a usage error. */
function parsed(args: string[], options: Options, positionals = false): Record<string, any> | number {
  try {
    const result = parseArgs({ args, options, strict: true, allowPositionals: positionals });
    return positionals ? { ...result.values, positionals: result.positionals } : result.values;
  } catch (error) {
    return reportUsage((error as Error).message, USAGE);
  }
}
