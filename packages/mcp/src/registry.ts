// The tool registry: every tool Sextant serves, in the order tools/list shows them. The worker and
// the runner serve exactly this list.
import { findReferencesTool } from './tools/find-references.ts';
import { gotoDefinitionTool } from './tools/goto-definition.ts';
import { indexStatusTool } from './tools/index-status.ts';
import { searchSymbolsTool } from './tools/search-symbols.ts';
import type { ToolDefinition } from './tool-definition.ts';

export const READ_TOOLS: readonly ToolDefinition[] = [indexStatusTool, searchSymbolsTool, gotoDefinitionTool, findReferencesTool];
