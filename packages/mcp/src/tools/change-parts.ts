// Schema pieces and index opening shared by the two change tools (diff_symbols, change_impact):
// both compare two indexed commits of one repository, named as base and head.
import * as z from 'zod';
import { CHANGE_ASPECTS, CHANGE_KINDS, type IndexReader } from '@sextant/query';
import { SextantError } from '@sextant/format';
import type { IndexProvider } from '../index-provider.ts';
import { once, schemaParts } from '../schema-parts.ts';

/** The change tools' schema pieces, built once, on the first call (as schemaParts). */
export const changeParts = once(() => {
  const { commitInput, language, location, pathsInput, symbolSummary, unresolvedOutput } = schemaParts();
  // base, head and format are said once, in the server instructions.
  const commitRef = z.string().min(1).max(256);

  const changeInput = {
    repo: commitInput.repo,
    base: commitRef,
    head: commitRef,
    paths: pathsInput.optional().describe('Of the declaring files, either side.'),
    includeTests: z.boolean().optional(),
    format: z.enum(['text', 'markdown']).optional(),
  };

  const changeKind = z.enum(CHANGE_KINDS);
  const changeAspect = z.enum(CHANGE_ASPECTS);

  const changeSide = symbolSummary.extend({ signature: z.string().optional() });

  const changeOutput = {
    repo: z.string().describe('Repository the answer comes from.'),
    commit: z.string().describe('Full sha of the head commit (as every answer names its commit).'),
    base: z.string().describe('Full sha of the base commit.'),
    head: z.string().describe('Full sha of the head commit.'),
  };

  const coverage = z.object({
    files: z.object({
      compiler: z.array(z.string()).describe('Changed files resolved by a compiler (TypeScript/JavaScript).'),
      scip: z.array(z.string()).describe('Changed files imported from a SCIP index: references exact, broken sites found by rule (no compiler errors are imported).'),
      syntactic: z.array(z.string()).describe('Changed files resolved on the syntax tree only (Java and Kotlin by scope, other languages by name): broken sites there are found by rule, with confidence.'),
      skipped: z.array(z.object({ path: z.string(), reason: z.string(), detail: z.string() }))
        .describe('Changed files that were not analysed (skipped by the indexer, or of a language no indexer reads): their symbols and sites are unknown.'),
    }),
    unresolved: unresolvedOutput.nullable().describe('Identifiers the compiler could not resolve inside the changed declarations or named like a changed symbol in a file read; null when a file read records none (its indexer does not say), i.e. unknown, never 0.'),
  });

  const fileChange = z.object({
    path: z.string(),
    change: z.enum(['added', 'removed', 'modified', 'renamed']),
    from: z.string().optional().describe('The path at base of a renamed file.'),
    language: language.optional(),
    status: z.enum(['indexed', 'skipped', 'unindexed']),
    linesAdded: z.number().int().optional(),
    linesRemoved: z.number().int().optional(),
    flags: z.number().int().describe('FILE_FLAGS: 1 test, 2 generated, 4 vendored.'),
  });

  const siteLocation = z.object(location);
  return { changeInput, changeKind, changeAspect, changeSide, changeOutput, coverage, fileChange, siteLocation };
});

/** Opens both commits' indexes; a missing one is COMMIT_NOT_INDEXED saying whether it is the base or the head. */
export async function openPair(provider: IndexProvider, args: { repo?: string; base: string; head: string }): Promise<[IndexReader, IndexReader]> {
  const open = async (side: 'base' | 'head', commit: string) => {
    try {
      return await provider.open({ ...(args.repo !== undefined ? { repo: args.repo } : {}), commit });
    } catch (error) {
      if (error instanceof SextantError && error.code === 'COMMIT_NOT_INDEXED') {
        throw new SextantError('COMMIT_NOT_INDEXED', `The ${side} commit: ${error.message}`, error.hint, { ...error.data, side });
      }
      throw error;
    }
  };
  return Promise.all([open('base', args.base), open('head', args.head)]);
}
