// Which files the TypeScript planner handles (without loading the compiler to find out).
import { TS_JS_EXTENSIONS } from '@sextant/format';

export function isTypeScriptPath(path: string): boolean {
  return TS_JS_EXTENSIONS.some((ext) => path.endsWith(ext)) && !/\.d\.[cm]?ts$/.test(path);
}
