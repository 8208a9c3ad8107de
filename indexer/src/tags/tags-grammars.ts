// The languages only tags queries cover: which registry package ships each grammar's wasm (pinned
// exactly in package.json: the queries name its node types), which files it parses, and its tags
// query (queries/<lang>/tags.scm). A grammar is loaded when a repository has files of its language.
import type { Language as Grammar, Query } from 'web-tree-sitter';
import type { Language } from '@sextant/format';
import { loadTagsQuery } from '../syntax/tree-sitter-runtime.ts';
import { checkTagCaptures } from './tags-extractor.ts';

export type TagsLanguage = Exclude<Language, 'typescript' | 'javascript' | 'java' | 'kotlin'>;

export interface TagsGrammar {
  lang: TagsLanguage;
  pkg: string;
  wasm: string;
  extensions: readonly string[];
}

export const TAGS_GRAMMARS: readonly TagsGrammar[] = [
  { lang: 'python', pkg: 'tree-sitter-python', wasm: 'tree-sitter-python.wasm', extensions: ['.py', '.pyi'] },
  { lang: 'go', pkg: 'tree-sitter-go', wasm: 'tree-sitter-go.wasm', extensions: ['.go'] },
  { lang: 'rust', pkg: 'tree-sitter-rust', wasm: 'tree-sitter-rust.wasm', extensions: ['.rs'] },
  { lang: 'csharp', pkg: 'tree-sitter-c-sharp', wasm: 'tree-sitter-c_sharp.wasm', extensions: ['.cs'] },
  { lang: 'ruby', pkg: 'tree-sitter-ruby', wasm: 'tree-sitter-ruby.wasm', extensions: ['.rb', '.rake'] },
  { lang: 'php', pkg: 'tree-sitter-php', wasm: 'tree-sitter-php.wasm', extensions: ['.php'] },
  // A `.h` file is C++ in a repository that has C++ sources (tagsLanguageOf's `headers`).
  { lang: 'c', pkg: 'tree-sitter-c', wasm: 'tree-sitter-c.wasm', extensions: ['.c', '.h'] },
  { lang: 'cpp', pkg: 'tree-sitter-cpp', wasm: 'tree-sitter-cpp.wasm', extensions: ['.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++'] },
  // No registry package of tree-sitter-swift ships a wasm; this bundle's is built from its 0.7 grammar.
  { lang: 'swift', pkg: '@repomix/tree-sitter-wasms', wasm: 'out/tree-sitter-swift.wasm', extensions: ['.swift'] },
  { lang: 'scala', pkg: 'tree-sitter-scala', wasm: 'tree-sitter-scala.wasm', extensions: ['.scala', '.sc'] },
  { lang: 'bash', pkg: 'tree-sitter-bash', wasm: 'tree-sitter-bash.wasm', extensions: ['.sh', '.bash'] },
];

const BY_EXTENSION = new Map(TAGS_GRAMMARS.flatMap((g) => g.extensions.map((e) => [e, g] as const)));
const CPP = TAGS_GRAMMARS.find((g) => g.lang === 'cpp')!;

/** The grammar of a path, by its extension; `.h` is C++'s when `headers` says so. */
export function tagsGrammarOf(path: string, headers: 'c' | 'cpp' = 'c'): TagsGrammar | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash + 1) return undefined; // no extension, or a dotfile such as `.bash`
  const extension = path.slice(dot).toLowerCase();
  if (extension === '.h' && headers === 'cpp') return CPP;
  return BY_EXTENSION.get(extension);
}

/** Whether these paths include C++ sources, which makes their `.h` files C++. */
export function headersOf(paths: Iterable<string>): 'c' | 'cpp' {
  for (const path of paths) if (tagsGrammarOf(path)?.lang === 'cpp') return 'cpp';
  return 'c';
}

export interface Tagger {
  grammar: TagsGrammar;
  language: Grammar;
  query: Query;
  version: string;
}

/** The grammar and its compiled tags query, once per process. */
export async function loadTagsTagger(grammar: TagsGrammar): Promise<Tagger> {
  const { language, query, version } = await loadTagsQuery(grammar.lang, grammar.pkg, grammar.wasm, checkTagCaptures);
  return { grammar, language, query, version };
}
