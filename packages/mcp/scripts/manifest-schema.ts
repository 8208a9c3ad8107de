// The index manifest's zod schema, from which schemas/manifest.schema.json is generated. The schema
// itself lives in @sextant/format (manifest-schema.ts), where parseManifest checks every manifest a
// reader opens against it: the published schema and the readers' check are one definition.
//
// The source of truth for the shape stays the `Manifest` interface in @sextant/format, so the
// schema is *checked* against the interface below: `tsc --noEmit -p packages/mcp` fails when a
// field is added, removed, renamed, made optional or given another type on either side.
import type * as z from 'zod';
import { manifestSchema, type Manifest } from '@sextant/format';
import type { Check, MutuallyAssignable, SameKeys } from '../src/schema-type-checks.ts';

export { manifestSchema };

// ---- Compile-time checks: the schema and the interface describe the same objects. ----
type Parsed = z.output<ReturnType<typeof manifestSchema>>;

/** Never used at run time: it only compiles while the schema matches the Manifest interface. */
export type ManifestSchemaMatchesInterface = [
  // Same top-level fields, so an optional field added to Manifest cannot go unnoticed.
  Check<SameKeys<Manifest, Parsed>>,
  // Same shapes throughout (formatVersion aside: the schema narrows number to the one it supports).
  Check<MutuallyAssignable<Omit<Manifest, 'formatVersion'>, Omit<Parsed, 'formatVersion'>>>,
  Check<Parsed['formatVersion'] extends Manifest['formatVersion'] ? true : false>,
];
