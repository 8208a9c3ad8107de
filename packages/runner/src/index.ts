// @sextant/runner: everything in this barrel is public API. Node-only: local index access, and
// refactorings planned in a working tree and applied to it.
export { LocalIndexProvider } from './local-index-provider.ts';
export { applyPlan, checkPlan } from './apply/apply-plan.ts';
export { recover, type Recovery } from './apply/recover.ts';
export { PathJail } from './apply/path-jail.ts';
export { RefactorContext } from './planning/refactor-context.ts';
export { planOperation } from './planning/plan-operation.ts';
export type { OperationRequest } from './planning/operation-request.ts';
export { writeTools } from './tools/write-tools.ts';
