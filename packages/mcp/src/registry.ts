// The tool registry: every read tool Sextant serves, in the order tools/list shows them. The worker
// and the runner serve exactly this list.
import { callHierarchyTool } from './tools/call-hierarchy.ts';
import { changeImpactTool } from './tools/change-impact.ts';
import { diffSymbolsTool } from './tools/diff-symbols.ts';
import { fileProblemsTool } from './tools/file-problems.ts';
import { fileStructureTool } from './tools/file-structure.ts';
import { findReferencesTool } from './tools/find-references.ts';
import { gotoDefinitionTool } from './tools/goto-definition.ts';
import { indexStatusTool } from './tools/index-status.ts';
import { readFileTool } from './tools/read-file.ts';
import { findImplementationsTool } from './tools/find-implementations.ts';
import { searchSymbolsTool } from './tools/search-symbols.ts';
import { searchTextTool } from './tools/search-text.ts';
import { symbolInfoTool } from './tools/symbol-info.ts';
import { typeHierarchyTool } from './tools/type-hierarchy.ts';
import { planRenameTool } from './tools/plan-rename.ts';
import { planSafeDeleteTool } from './tools/plan-safe-delete.ts';
import type { ToolDefinition } from './tool-definition.ts';

/** Tools that return a refactoring plan from the index. They write nothing: `runner apply` applies a plan locally. */
const PLAN_TOOLS: readonly ToolDefinition[] = [planRenameTool, planSafeDeleteTool];

export const READ_TOOLS: readonly ToolDefinition[] = [
  indexStatusTool, searchSymbolsTool, searchTextTool, gotoDefinitionTool, symbolInfoTool, findReferencesTool, findImplementationsTool,
  typeHierarchyTool, callHierarchyTool, fileStructureTool, readFileTool, fileProblemsTool,
  diffSymbolsTool, changeImpactTool, ...PLAN_TOOLS,
];

