// Which files the TypeScript planner handles (without loading the compiler to find out).
export const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

export function isTypeScriptPath(path: string): boolean {
  return TS_EXTENSIONS.some((ext) => path.endsWith(ext)) && !/\.d\.[cm]?ts$/.test(path);
}
