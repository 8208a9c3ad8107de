// The file extensions of TypeScript and JavaScript modules: the one list the indexer's TypeScript
// indexer, its syntax fallback and the runner's TypeScript planner all go by.

export const TS_JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

export type TsJsExtension = (typeof TS_JS_EXTENSIONS)[number];
