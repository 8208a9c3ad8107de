// The `languages` filter of search_text: file types by ripgrep's names (`rg -t ts`), each the file
// names it covers, by extension or whole name, so a text search can ask for Markdown or YAML as
// easily as for the languages the index resolves. Matched on the file name, as ripgrep matches
// type globs; an unknown name is refused with the names there are.
import { SextantError } from '@sextant/format';

interface TextType {
  /** Extensions, without the dot; a file name ending in `.<ext>` is of the type. */
  ext: string[];
  /** Whole file names of the type. */
  names?: string[];
}

const TYPES: Record<string, TextType> = {
  bazel: { ext: ['bazel', 'bzl', 'star'], names: ['BUILD', 'WORKSPACE'] },
  c: { ext: ['c', 'h'] },
  cmake: { ext: ['cmake'], names: ['CMakeLists.txt'] },
  config: { ext: ['cfg', 'conf', 'config', 'ini'] },
  cpp: { ext: ['cc', 'cpp', 'cxx', 'c++', 'hh', 'hpp', 'hxx', 'h++', 'inl', 'ipp', 'h'] },
  cs: { ext: ['cs'] },
  css: { ext: ['css', 'scss', 'sass', 'less'] },
  csv: { ext: ['csv', 'tsv'] },
  dart: { ext: ['dart'] },
  docker: { ext: ['dockerfile'], names: ['Dockerfile', 'Containerfile'] },
  elixir: { ext: ['ex', 'exs', 'eex'] },
  go: { ext: ['go'], names: ['go.mod', 'go.sum'] },
  gradle: { ext: ['gradle', 'gradle.kts'] },
  graphql: { ext: ['graphql', 'gql', 'graphqls'] },
  groovy: { ext: ['groovy', 'gradle'] },
  haskell: { ext: ['hs', 'lhs'] },
  html: { ext: ['htm', 'html', 'ejs'] },
  java: { ext: ['java'] },
  js: { ext: ['js', 'jsx', 'mjs', 'cjs', 'vue'] },
  json: { ext: ['json', 'jsonc', 'json5'] },
  kotlin: { ext: ['kt', 'kts'] },
  lua: { ext: ['lua'] },
  make: { ext: ['mk', 'mak'], names: ['Makefile', 'makefile', 'GNUmakefile'] },
  md: { ext: ['md', 'markdown', 'mdx', 'mdown', 'mkdn'] },
  objc: { ext: ['m', 'mm', 'h'] },
  perl: { ext: ['pl', 'pm', 't'] },
  php: { ext: ['php', 'phtml'] },
  properties: { ext: ['properties'] },
  protobuf: { ext: ['proto'] },
  py: { ext: ['py', 'pyi'] },
  r: { ext: ['r', 'R', 'Rmd'] },
  rst: { ext: ['rst'] },
  ruby: { ext: ['rb', 'gemspec', 'rake'], names: ['Gemfile', 'Rakefile'] },
  rust: { ext: ['rs'], names: ['Cargo.toml', 'Cargo.lock'] },
  scala: { ext: ['scala', 'sc', 'sbt'] },
  sh: { ext: ['sh', 'bash', 'zsh', 'ksh'], names: ['.bashrc', '.zshrc', '.profile'] },
  sql: { ext: ['sql', 'psql'] },
  svelte: { ext: ['svelte'] },
  swift: { ext: ['swift'] },
  terraform: { ext: ['tf', 'tfvars', 'hcl'] },
  toml: { ext: ['toml'] },
  ts: { ext: ['ts', 'tsx', 'mts', 'cts'] },
  txt: { ext: ['txt'] },
  xml: { ext: ['xml', 'xsd', 'xsl', 'xslt', 'dtd', 'xhtml', 'svg'] },
  yaml: { ext: ['yaml', 'yml'] },
};

/** The names Sextant gives its languages elsewhere (search_symbols' language), for the types they are. */
const ALIASES: Record<string, string> = { typescript: 'ts', javascript: 'js', python: 'py', markdown: 'md', csharp: 'cs', golang: 'go', shell: 'sh', yml: 'yaml' };

/** The type names search_text knows, sorted (what an error lists). */
export const TEXT_TYPE_NAMES = Object.keys(TYPES).sort();

/** A test of file paths against types by name (any of them); every path passes when none is given. */
export function languageFilter(languages: readonly string[] | undefined): (path: string) => boolean {
  if (!languages || languages.length === 0) return () => true;
  const ext = new Set<string>();
  const names = new Set<string>();
  for (const language of languages) {
    const type = TYPES[ALIASES[language] ?? language];
    if (!type) {
      throw new SextantError('INVALID_ARGUMENT', `"${language}" is not a file type search_text knows.`,
        `Use ripgrep's type names: ${TEXT_TYPE_NAMES.join(', ')}; or select files by glob with paths (\`**/*.ext\`).`, { argument: 'languages', language });
    }
    type.ext.forEach((e) => ext.add(e));
    type.names?.forEach((n) => names.add(n));
  }
  return (path) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (names.has(name)) return true;
    // Every suffix after a dot: `a.gradle.kts` is of `kts` and of `gradle.kts`.
    for (let dot = name.indexOf('.', 1); dot >= 0; dot = name.indexOf('.', dot + 1)) if (ext.has(name.slice(dot + 1))) return true;
    return false;
  };
}
