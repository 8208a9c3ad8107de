// A refactoring plan: the complete, inspectable description of a change to a repository, made by
// the hosted worker (from the index) or the local runner (from the TypeScript language service),
// and applied only by the runner. A plan names what it expects of every file it touches (the
// BLAKE3 hash of its bytes) and what it will leave there; `planHash` is the BLAKE3 of the plan's
// canonical JSON without the hash, so a plan cannot be edited after it was made without the apply
// noticing. Positions are counted as @sextant/format's text-positions.ts counts them, like everywhere
// in Sextant; edits over a file's text are in plan-edits.ts. Runtime-neutral.
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson, SextantError } from '@sextant/format';
import { isPlanKeyId, PLAN_SIGNATURE_ALG, PLAN_SIGNATURE_VALUE_PATTERN, type PlanSignature } from './plan-signature.ts';

export const PLAN_FORMAT = 1;

export const PLAN_OPERATIONS = [
  'rename', 'safe_delete', 'move_symbol', 'inline', 'replace_symbol_body', 'insert_before_symbol',
  'insert_after_symbol', 'reformat_file', 'organize_imports',
] as const;
export type PlanOperation = (typeof PLAN_OPERATIONS)[number];

/** Where the edits come from: the TypeScript language service over a working tree, or the index's references. */
export const PLANNERS = ['typescript', 'index'] as const;
export type Planner = (typeof PLANNERS)[number];

/**
 * Why a plan must not be applied as it is. Every conflict blocks; `force` applies anyway (never
 * over a file whose content is not the expected one: that is a CONFLICT error at apply time).
 */
export const CONFLICT_KINDS = [
  'name-collision', // the new name is already declared where the symbol is declared or used
  'shadowing', // the new name would hide, or be hidden by, another declaration in an affected scope
  'generated-file', // an edit lands in a generated file
  'vendored-file', // an edit lands in a vendored file
  'working-tree-differs', // the working tree file differs from the commit the plan was made against
  'usage', // safe_delete: the symbol is still used (or overridden) here
  'candidate-usage', // the index only matched this usage by name; it may or may not be the symbol
  'unresolved-usage', // an identifier named like the symbol that the index resolved to nothing; it may be a usage
  'unmatched-override', // a same-named member of a sub- or supertype whose signature could not be matched; it may override the symbol
  'introduces-errors', // the TypeScript compiler reports new errors in the changed program
  'unexpected-text', // the index's range does not hold the text the edit expects
  'textual-mention', // rename: the old name in text the rename does not edit (a comment, a string, documentation); listed, never edited
] as const;
type ConflictKind = (typeof CONFLICT_KINDS)[number];

export const FILE_CHANGES = ['modify', 'create', 'delete'] as const;
export type FileChange = (typeof FILE_CHANGES)[number];

export interface PlanEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  newText: string;
}

export interface PlanFile {
  /** Repository-relative, forward slashes. */
  path: string;
  change: FileChange;
  /** BLAKE3 (hex) of the bytes the file must have before the apply; null: it must not exist. */
  expectedHash: string | null;
  /** BLAKE3 (hex) of the bytes it has after; null: it is deleted. */
  resultHash: string | null;
  /** Non-overlapping, in position order, over the file's text (a create has one edit at 1:1). */
  edits: PlanEdit[];
}

export interface PlanConflict {
  kind: ConflictKind;
  message: string;
  path?: string;
  line?: number;
  column?: number;
}

export interface PlanSymbol {
  symbolId: string;
  name: string;
  kind: string;
  qualifiedName: string;
  language: string;
  path?: string;
  line?: number;
  column?: number;
}

export type PlanArgument = string | number | boolean;

export interface Plan {
  format: typeof PLAN_FORMAT;
  operation: PlanOperation;
  /** The operation's arguments as given (target, new name, …). */
  arguments: Record<string, PlanArgument>;
  repo: string;
  /** The commit the plan was made against (the index's commit). */
  commit: string;
  planner: Planner;
  /** The symbol the operation is about; absent for file operations. */
  symbol?: PlanSymbol;
  files: PlanFile[];
  conflicts: PlanConflict[];
  /** BLAKE3 (hex) of canonicalJson(the plan without planHash and signature). */
  planHash: string;
  /** ed25519 over the planHash by the worker or runner that made the plan; absent: unsigned. */
  signature?: PlanSignature;
}

export type UnsealedPlan = Omit<Plan, 'planHash' | 'signature'>;

// ---- Hashes and the canonical form ----

export function contentHash(bytes: Uint8Array): string {
  return bytesToHex(blake3(bytes));
}

export function textHash(text: string): string {
  return contentHash(utf8ToBytes(text));
}

/** The signature is over the hash, so it cannot be part of what is hashed. */
export function computePlanHash(plan: UnsealedPlan | Plan): string {
  const { planHash: _hash, signature: _signature, ...rest } = plan as Plan;
  return textHash(canonicalJson(rest));
}

/** The plan with its planHash and without any signature (a signature over another hash would be void). */
export function sealPlan(plan: UnsealedPlan): Plan {
  const { planHash: _hash, signature: _signature, ...rest } = plan as Plan;
  return { ...rest, planHash: computePlanHash(rest) };
}

export function planHashMatches(plan: Plan): boolean {
  return computePlanHash(plan) === plan.planHash;
}

// ---- Reading a plan from JSON ----

const HEX64 = /^[0-9a-f]{64}$/;

/** Checks the shape of a plan read from a file or a tool call; anything off is INVALID_ARGUMENT. */
export function parsePlan(input: unknown, where = 'the plan'): Plan {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw invalid(where, `is not JSON (${(error as Error).message})`);
    }
  }
  const plan = object(value, where);
  if (plan.format !== PLAN_FORMAT) throw invalid(where, `has format ${String(plan.format)}; this runner reads format ${PLAN_FORMAT}`);
  oneOf(plan.operation, PLAN_OPERATIONS, `${where}: operation`);
  oneOf(plan.planner, PLANNERS, `${where}: planner`);
  for (const field of ['repo', 'commit'] as const) text(plan[field], `${where}: ${field}`);
  hex(plan.planHash, `${where}: planHash`);
  if (plan.signature !== undefined) {
    const signature = object(plan.signature, `${where}: signature`);
    if (signature.alg !== PLAN_SIGNATURE_ALG) throw invalid(where, `signature.alg is not ${PLAN_SIGNATURE_ALG}`);
    if (typeof signature.keyId !== 'string' || !isPlanKeyId(signature.keyId)) throw invalid(where, 'signature.keyId is not 16 lowercase hex digits');
    if (typeof signature.value !== 'string' || !PLAN_SIGNATURE_VALUE_PATTERN.test(signature.value)) throw invalid(where, 'signature.value is not 64 bytes of base64');
  }
  for (const [name, arg] of Object.entries(object(plan.arguments, `${where}: arguments`))) {
    if (!['string', 'number', 'boolean'].includes(typeof arg)) throw invalid(where, `argument ${name} is not a string, number or boolean`);
  }
  if (plan.symbol !== undefined) {
    const symbol = object(plan.symbol, `${where}: symbol`);
    for (const field of ['symbolId', 'name', 'kind', 'qualifiedName', 'language'] as const) text(symbol[field], `${where}: symbol.${field}`);
  }
  const files = array(plan.files, `${where}: files`);
  const seen = new Set<string>();
  files.forEach((entry, i) => {
    const file = object(entry, `${where}: files[${i}]`);
    text(file.path, `${where}: files[${i}].path`);
    if (seen.has(file.path as string)) throw invalid(where, `lists ${String(file.path)} twice`);
    seen.add(file.path as string);
    oneOf(file.change, FILE_CHANGES, `${where}: files[${i}].change`);
    const mustBeNull = { expectedHash: file.change === 'create', resultHash: file.change === 'delete' };
    for (const field of ['expectedHash', 'resultHash'] as const) {
      if (mustBeNull[field] ? file[field] !== null : typeof file[field] !== 'string' || !HEX64.test(file[field] as string)) {
        throw invalid(where, `files[${i}].${field} must be ${mustBeNull[field] ? 'null' : '64 lowercase hex digits'} for a ${String(file.change)}`);
      }
    }
    array(file.edits, `${where}: files[${i}].edits`).forEach((e, j) => {
      const edit = object(e, `${where}: files[${i}].edits[${j}]`);
      for (const field of ['line', 'column', 'endLine', 'endColumn'] as const) {
        if (!Number.isInteger(edit[field]) || (edit[field] as number) < 1) throw invalid(where, `files[${i}].edits[${j}].${field} is not a positive integer`);
      }
      if (typeof edit.newText !== 'string') throw invalid(where, `files[${i}].edits[${j}].newText is not a string`);
    });
  });
  array(plan.conflicts, `${where}: conflicts`).forEach((c, i) => {
    const conflict = object(c, `${where}: conflicts[${i}]`);
    oneOf(conflict.kind, CONFLICT_KINDS, `${where}: conflicts[${i}].kind`);
    if (typeof conflict.message !== 'string') throw invalid(where, `conflicts[${i}].message is not a string`);
  });
  return plan as unknown as Plan;
}

function invalid(where: string, what: string): SextantError {
  return new SextantError('INVALID_ARGUMENT', `${where} ${what}.`,
    'Pass a plan exactly as plan_rename, plan_safe_delete or a runner preview produced it (see schemas/plan.schema.json).');
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(what, 'is not an object');
  return value as Record<string, unknown>;
}

function array(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(what, 'is not an array');
  return value;
}

function text(value: unknown, what: string): void {
  if (typeof value !== 'string' || value.length === 0) throw invalid(what, 'is not a non-empty string');
}

function hex(value: unknown, what: string): void {
  if (typeof value !== 'string' || !HEX64.test(value)) throw invalid(what, 'is not 64 lowercase hex digits');
}

function oneOf(value: unknown, allowed: readonly string[], what: string): void {
  if (typeof value !== 'string' || !allowed.includes(value)) throw invalid(what, `is not one of ${allowed.join(', ')}`);
}
