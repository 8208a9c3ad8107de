// The refactoring plan as a zod schema: the output of the plan tools and of the runner's previews,
// and the source of schemas/plan.schema.json.
//
// The source of truth is the `Plan` interface in @sextant/plan, which also checks plans by hand
// (parsePlan) so the runner can apply one without loading zod. This restatement is checked against
// the interface at the bottom of this file, as manifest-schema.ts does for the manifest:
// `tsc --noEmit` fails when the two drift apart.
import * as z from 'zod';
import {
  CONFLICT_KINDS, FILE_CHANGES, PLAN_FORMAT, PLAN_KEY_ID_PATTERN, PLAN_OPERATIONS, PLAN_SIGNATURE_ALG, PLAN_SIGNATURE_CONTEXT,
  PLAN_SIGNATURE_VALUE_PATTERN, PLANNERS, type Plan,
} from '@sextant/plan';
import { once } from '../schema-parts.ts';
import type { Check, MutuallyAssignable, SameKeys } from '../schema-type-checks.ts';

/** The plan's schemas, built once, on the first call (as schemaParts in ../schema-parts.ts). */
export const planSchemas = once(() => {
  const hash = z.string().regex(/^[0-9a-f]{64}$/);
  const position = z.number().int().min(1);

  const planEditSchema = z.object({
    line: position,
    column: position,
    endLine: position,
    endColumn: position,
    newText: z.string(),
  });

  const planFileSchema = z.object({
    path: z.string().min(1).describe('Repository-relative path, forward slashes.'),
    change: z.enum(FILE_CHANGES),
    expectedHash: hash.nullable().describe('BLAKE3 (hex) of the bytes the file must have before the apply; null: the file must not exist.'),
    resultHash: hash.nullable().describe('BLAKE3 (hex) of the bytes the file has after the apply; null: it is deleted.'),
    edits: z.array(planEditSchema)
      .describe('Non-overlapping replacements over the file\'s text (1-based lines, columns in UTF-16 code units; a byte-order mark is not part of the text).'),
  });

  const planConflictSchema = z.object({
    kind: z.enum(CONFLICT_KINDS),
    message: z.string(),
    path: z.string().optional(),
    line: z.number().int().optional(),
    column: z.number().int().optional(),
  });

  const planSchema = z.object({
    format: z.literal(PLAN_FORMAT).describe('Format of the plan document.'),
    operation: z.enum(PLAN_OPERATIONS),
    arguments: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).describe('The operation\'s arguments as given.'),
    repo: z.string().min(1),
    commit: z.string().min(1).describe('The commit the plan was made against.'),
    planner: z.enum(PLANNERS).describe('typescript: the TypeScript language service over the working tree; index: the index\'s references.'),
    symbol: z.object({
      symbolId: z.string(),
      name: z.string(),
      kind: z.string(),
      qualifiedName: z.string(),
      language: z.string(),
      path: z.string().optional(),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
    }).optional(),
    files: z.array(planFileSchema),
    conflicts: z.array(planConflictSchema).describe('Every conflict blocks the apply unless it is forced.'),
    planHash: hash.describe('BLAKE3 (hex) of the canonical JSON (RFC 8785) of the plan without planHash and signature.'),
    signature: z.object({
      alg: z.literal(PLAN_SIGNATURE_ALG),
      keyId: z.string().regex(PLAN_KEY_ID_PATTERN).describe('The first 16 hex digits of the SHA-256 of the raw public key.'),
      value: z.string().regex(PLAN_SIGNATURE_VALUE_PATTERN).describe(`base64 of the ed25519 signature of the UTF-8 bytes of "${PLAN_SIGNATURE_CONTEXT}" followed by planHash.`),
    }).optional().describe('Who made the plan: the worker (its keys are served at /.well-known/sextant-plan-keys) or a runner (its per-user key). `runner apply` applies only plans signed by a key it trusts.'),
  });

  /** What every tool that returns a plan answers: the plan, whether it is blocked, and its diff. */
  const planAnswerOutput = {
    plan: planSchema,
    blocked: z.boolean().describe('True when the plan has conflicts: applying it needs force.'),
    diff: z.string().describe('The plan as a unified diff against the files it was made from.'),
  };
  return { planEditSchema, planFileSchema, planConflictSchema, planSchema, planAnswerOutput };
});

// ---- Compile-time checks: the schema and the interface describe the same objects. ----
type Parsed = z.output<ReturnType<typeof planSchemas>['planSchema']>;

/** Never used at run time: it only compiles while the schema matches the Plan interface. */
type PlanSchemaMatchesInterface = [
  Check<SameKeys<Plan, Parsed>>,
  Check<MutuallyAssignable<Omit<Plan, 'format'>, Omit<Parsed, 'format'>>>,
  Check<Parsed['format'] extends Plan['format'] ? true : false>,
];
