// @sextant/plan: everything in this barrel is public API. Refactoring plans: the document (types,
// canonical JSON, planHash, signatures, parse and validate), plans made from the index (rename,
// safe delete) and a plan as a diff or text. Runtime-neutral (Node and workerd).
export {
  computePlanHash, CONFLICT_KINDS, contentHash, FILE_CHANGES, parsePlan, PLAN_FORMAT, PLAN_OPERATIONS, planHashMatches, PLANNERS, sealPlan, textHash,
} from './plan-document.ts';
export type {
  FileChange, Plan, PlanArgument, PlanConflict, PlanEdit, PlanFile, Planner, PlanOperation, PlanSymbol, UnsealedPlan,
} from './plan-document.ts';
export { applyEdits, editAt, wholeLines, withCommentsAbove, withoutDoubleBlank } from './plan-edits.ts';
export {
  generatePlanSigningKey, parsePlanPublicKeys, PLAN_KEY_ID_PATTERN, PLAN_SIGNATURE_ALG, PLAN_SIGNATURE_CONTEXT, PLAN_SIGNATURE_VALUE_PATTERN,
  planSigner, verifyPlanSignature,
} from './plan-signature.ts';
export type { PlanKeysDocument, PlanPublicKey, PlanSigner } from './plan-signature.ts';
export {
  classificationConflicts, outlinePath, planRenameFromIndex, planSafeDeleteFromIndex, planSymbol, resolveOwnSymbol,
} from './plan-from-index.ts';
export type { PlanFromIndexOptions } from './plan-from-index.ts';
export { fileDiff, renderPlanDiff } from './plan-diff.ts';
export { indexDiff } from './index-diff.ts';
export { renderPlan } from './plan-text.ts';
export { MAX_TEXTUAL_MENTIONS, textualMentions } from './textual-mentions.ts';
