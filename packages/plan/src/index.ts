// @sextant/plan: everything in this barrel is public API. Refactoring plans: the document (types,
// canonical JSON, planHash, signatures, parse and validate), plans made from the index (rename,
// safe delete) and a plan as a diff or text. Runtime-neutral (Node and workerd).
export * from './plan-document.ts';
export * from './plan-edits.ts';
export * from './plan-signature.ts';
export * from './plan-from-index.ts';
export * from './plan-diff.ts';
export * from './index-diff.ts';
export * from './plan-text.ts';
