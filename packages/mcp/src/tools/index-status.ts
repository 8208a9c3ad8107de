// index_status: which commit answers, how it was built, what it holds and what it skipped.
import * as z from 'zod';
import { PRECISIONS, SKIPPED_REASONS } from '@sextant/format';
import { indexStatus } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { schemaParts } from '../schema-parts.ts';

export const indexStatusTool = defineTool({
  name: 'index_status',
  title: 'Index status',
  description:
    'The repository and commit served: build, versions, languages and precision, counts, skipped files. With commit: is it indexed?',
  schemas: () => {
    const { answerOutput, commitInput } = schemaParts();
    const languageSummary = z.object({ files: z.number().int(), precision: z.enum(PRECISIONS) });
    return {
      input: z.strictObject({ ...commitInput }),
      output: z.object({
        ...answerOutput,
        state: z.literal('ready'),
        commitDate: z.string(),
        builtAt: z.string(),
        indexer: z.object({ name: z.string(), version: z.string() }),
        parsers: z.record(z.string(), z.string()),
        libraryModels: z.array(z.object({ name: z.string(), version: z.string() })).describe('Library API models (JDK, Kotlin stdlib) the Java/Kotlin resolution typed library calls with.'),
        formatVersion: z.number().int(),
        languages: z.record(z.string(), languageSummary),
        counts: z.object({
          files: z.number().int(), texts: z.number().int().describe('Tracked text files search_text searches (the indexed and the others).'),
          symbols: z.number().int(), references: z.number().int(), edges: z.number().int(),
          unresolved: z.number().int().describe('Identifiers in reference positions the indexers resolved to nothing; answers about a same-named symbol report them.'),
        }),
        shards: z.object({ count: z.number().int(), bytes: z.number().int() }),
        skipped: z.array(z.object({ path: z.string(), reason: z.enum(SKIPPED_REASONS), detail: z.string() })),
        warnings: z.array(z.string()),
        build: z.discriminatedUnion('mode', [
          z.object({ mode: z.literal('full'), reason: z.string().optional() }),
          z.object({ mode: z.literal('incremental'), from: z.string(), walked: z.number().int(), reused: z.number().int() }),
        ]).describe('full, or incremental from another commit\'s index: files walked again and files reused; equal to a full build either way.'),
        requested: z.object({ commit: z.string(), matches: z.boolean() }).optional(),
      }),
    };
  },
  async run(provider, args) {
    return indexStatus(await openIndex(provider, args), args.commit);
  },
  render(s) {
    const languages = Object.entries(s.languages).map(([name, l]) => `${name} ${l.files} files (${l.precision})`).join(', ');
    return [
      `${s.repo}@${s.commit} indexed ${s.builtAt} by ${s.indexer.name} ${s.indexer.version}, ${s.build.mode === 'incremental' ? `incrementally from ${s.build.from.slice(0, 12)} (${s.build.walked} files walked again, ${s.build.reused} reused)` : `in full${s.build.reason ? ` (${s.build.reason})` : ''}`}`,
      `languages: ${languages || 'none'}`,
      ...(s.libraryModels.length ? [`library models: ${s.libraryModels.map((m) => `${m.name} ${m.version}`).join(', ')}`] : []),
      `counts: ${s.counts.files} files (${s.counts.texts} text files searchable), ${s.counts.symbols} symbols, ${s.counts.references} references, ${s.counts.edges} edges, ${s.counts.unresolved} unresolved identifiers; ${s.shards.count} shards, ${s.shards.bytes} bytes`,
      ...(s.skipped.length ? [`skipped ${s.skipped.length}:`, ...s.skipped.map((f) => `  ${f.path}: ${f.detail}`)] : []),
      ...s.warnings.map((w) => `warning: ${w}`),
    ].join('\n');
  },
});
