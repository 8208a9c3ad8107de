// What a caller asks the runner to plan: an operation on a symbol (resolved through the index) or
// on a file, with its arguments.
import type { PlanArgument, PlanOperation } from '@sextant/plan';
import type { Target } from '@sextant/query';

type SymbolOperationRequest =
  | { operation: 'rename'; target: Target; newName: string }
  | { operation: 'safe_delete'; target: Target }
  | { operation: 'move_symbol'; target: Target; toFile: string }
  | { operation: 'inline'; target: Target }
  | { operation: 'replace_symbol_body' | 'insert_before_symbol' | 'insert_after_symbol'; target: Target; text: string };

type FileOperationRequest = { operation: 'reformat_file' | 'organize_imports'; path: string };

export type OperationRequest = SymbolOperationRequest | FileOperationRequest;

export function isFileOperation(request: OperationRequest): request is FileOperationRequest {
  return request.operation === 'reformat_file' || request.operation === 'organize_imports';
}

/** The request as the plan records it: target fields and arguments, flat. */
export function requestArguments(request: OperationRequest): Record<string, PlanArgument> {
  const { operation: _operation, ...rest } = request as { operation: PlanOperation } & Record<string, unknown>;
  const args: Record<string, PlanArgument> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'target') {
      for (const [k, v] of Object.entries(value as Target)) if (v !== undefined) args[k] = v as PlanArgument;
    } else if (value !== undefined) {
      args[key] = value as PlanArgument;
    }
  }
  return args;
}
