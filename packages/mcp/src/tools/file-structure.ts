// file_structure: the outline of one file.
import * as z from 'zod';
import { fileStructure, type StructureNode } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { schemaParts } from '../schema-parts.ts';

type Node = z.ZodType<StructureNode>;
export const fileStructureTool = defineTool({
  name: 'file_structure',
  title: 'File structure',
  description:
    'A file\'s outline: nested declarations with kinds, ranges, symbolIds; language, line count, classification.',
  schemas: () => {
    const { answerOutput, commitInput, language, symbolKind } = schemaParts();
    const node: Node = z.lazy(() => z.object({
      name: z.string(),
      kind: symbolKind,
      symbolId: z.string().optional(),
      line: z.number().int(),
      column: z.number().int(),
      endLine: z.number().int(),
      endColumn: z.number().int(),
      nameLine: z.number().int(),
      nameColumn: z.number().int(),
      children: z.array(node),
    })) as Node;
    return {
      input: z.strictObject({ path: z.string().min(1).max(4096), ...commitInput }),
      output: z.object({
        ...answerOutput,
        path: z.string(),
        language,
        classification: z.array(z.string()),
        lines: z.number().int(),
        outline: z.array(node),
        total: z.number().int(),
        totalIsExact: z.literal(true),
        hasMore: z.literal(false),
      }),
    };
  },
  async run(provider, { repo, commit, path }) {
    return fileStructure(await openIndex(provider, { repo, commit }), path);
  },
  render(a) {
    const lines: string[] = [`${a.path} (${a.language}, ${a.lines} lines${a.classification.length ? `, ${a.classification.join(', ')}` : ''})`];
    const walk = (nodes: StructureNode[], depth: number) => {
      for (const n of nodes) {
        lines.push(`${'  '.repeat(depth + 1)}${n.kind} ${n.name} ${n.line}-${n.endLine}${n.symbolId ? ` ${n.symbolId}` : ''}`);
        walk(n.children, depth + 1);
      }
    };
    walk(a.outline, 0);
    return lines.join('\n');
  },
});
