// The command line of the refactoring commands: which command names which plan operation, their
// flags, and the request a command line asks for (a usage mistake is INVALID_ARGUMENT). Read before
// anything is loaded, so a mistake is reported without the compiler.
import { readFileSync } from 'node:fs';
import { SextantError } from '@sextant/format';
import type { PlanOperation } from '@sextant/plan';
import type { Target } from '@sextant/query';
import type { OperationRequest } from '../planning/operation-request.ts';

/** CLI command name → plan operation. */
export const REFACTOR_COMMANDS: Record<string, PlanOperation> = {
  rename: 'rename',
  'safe-delete': 'safe_delete',
  move: 'move_symbol',
  inline: 'inline',
  'replace-body': 'replace_symbol_body',
  'insert-before': 'insert_before_symbol',
  'insert-after': 'insert_after_symbol',
  reformat: 'reformat_file',
  'organize-imports': 'organize_imports',
};

export const REFACTOR_OPTIONS = {
  repo: { type: 'string' },
  index: { type: 'string' },
  symbol: { type: 'string' },
  'qualified-name': { type: 'string' },
  name: { type: 'string' },
  path: { type: 'string' },
  line: { type: 'string' },
  column: { type: 'string' },
  to: { type: 'string' },
  'to-file': { type: 'string' },
  text: { type: 'string' },
  'text-file': { type: 'string' },
  file: { type: 'string' },
  apply: { type: 'boolean' },
  force: { type: 'boolean' },
  out: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export type RefactorValues = { [K in keyof typeof REFACTOR_OPTIONS]?: (typeof REFACTOR_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** The request a command line asks for; usage mistakes are INVALID_ARGUMENT. */
export function requestOf(operation: PlanOperation, values: RefactorValues): OperationRequest {
  const need = (value: string | undefined, flag: string): string => {
    if (value === undefined || value === '') throw new SextantError('INVALID_ARGUMENT', `${operation} needs ${flag}.`, `Pass ${flag}.`);
    return value;
  };
  if (operation === 'reformat_file' || operation === 'organize_imports') return { operation, path: need(values.file, '--file PATH') };
  const target = targetOf(values);
  switch (operation) {
    case 'rename': return { operation, target, newName: need(values.to, '--to NAME') };
    case 'move_symbol': return { operation, target, toFile: need(values['to-file'], '--to-file PATH') };
    case 'safe_delete':
    case 'inline':
      return { operation, target };
    default: {
      if ((values.text === undefined) === (values['text-file'] === undefined)) {
        throw new SextantError('INVALID_ARGUMENT', `${operation} needs the code: exactly one of --text or --text-file.`, 'Pass --text CODE or --text-file FILE.');
      }
      return { operation, target, text: values.text ?? readCode(values['text-file']!) };
    }
  }
}

function readCode(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new SextantError('FILE_NOT_FOUND', `Cannot read --text-file ${path}: ${(error as Error).message}.`, 'Pass the path of a file holding the code.');
  }
}

function targetOf(values: RefactorValues): Target {
  const number = (value: string | undefined, flag: string) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new SextantError('INVALID_ARGUMENT', `${flag} must be a positive integer, not "${value}".`, `Pass ${flag} as a 1-based number.`);
    return n;
  };
  const target: Target = {
    symbolId: values.symbol, qualifiedName: values['qualified-name'], name: values.name, path: values.path,
    line: number(values.line, '--line'), column: number(values.column, '--column'),
  };
  if (Object.values(target).every((v) => v === undefined)) {
    throw new SextantError('INVALID_ARGUMENT', 'No target given.', 'Pass --symbol ID, --qualified-name Q, --name N, or --path P --line L --column C.');
  }
  return Object.fromEntries(Object.entries(target).filter(([, v]) => v !== undefined)) as Target;
}
