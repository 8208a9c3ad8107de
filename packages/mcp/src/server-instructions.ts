// The server's `instructions`: how the tools chain, and the arguments every tool shares, said once
// here instead of in each tool's input schema. A model reads tools/list and these in every session,
// so both are kept inside a byte budget a test enforces (TOOLS_LIST_BUDGET in packages/mcp/test).
export const SERVER_INSTRUCTIONS = [
  'Code navigation from the index of one commit; answers name their repo and commit. Lists give total, totalIsExact, hasMore, nextCursor. Integer arguments are at least 1 (context: 0).',
  'Shared arguments:',
  '- target, one of: symbolId (from any result; exact); path+line+column (1-based, UTF-16 column, anywhere on the identifier); qualifiedName (`Class.member`, `path:Class.member`); name (exact; several: AMBIGUOUS_SYMBOL lists them).',
  '- repo: owner/name, default the endpoint\'s. commit: sha (7+ hex) or ref, default the cursor\'s, else the indexed one; never answered from another (a hosted ref is re-read at most every 5 s).',
  '- limit; cursor: nextCursor while hasMore.',
  '- paths: globs (`src/**`; `!` excludes). includeTests, includeGenerated: count those files (default true; false in search_symbols).',
  '- depth, maxNodes: graph bounds (a cut sets truncationReason).',
  '- context (0-3; search_text 0-5): lines before/after each site (its own line is always given).',
  '- base, head: the older and newer commit (sha or ref), both indexed. format markdown: content is a review comment to post.',
  'confidence: exact (compiler or SCIP), resolved (scope and imports), candidate (name only). Unknown arguments are rejected.',
].join('\n');
