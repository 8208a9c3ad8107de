// The two JVM grammars: which registry package ships each wasm (pinned exactly in package.json:
// the tags queries name their node types), which files each parses, and the little syntax each
// adds to the generic extraction. Grammars and queries are loaded once per process.
import type { Language, Node, Query } from 'web-tree-sitter';
import { loadTagsQuery } from '../syntax/tree-sitter-runtime.ts';
import type { JvmLanguage } from './file-model.ts';
import { checkCaptureNames, type ExtractionRules } from './tag-extractor.ts';

export interface JvmGrammar {
  lang: JvmLanguage;
  pkg: string;
  wasm: string;
  extensions: readonly string[];
  rules: ExtractionRules;
}

export interface Tagger {
  grammar: JvmGrammar;
  language: Language;
  query: Query;
  version: string;
}

const JAVA_BODIES = new Set(['class_body', 'interface_body', 'enum_body', 'annotation_type_body', 'block', 'constructor_body']);
const KOTLIN_BODIES = new Set(['class_body', 'enum_class_body', 'function_body', 'block', 'getter', 'setter']);

export const JAVA: JvmGrammar = {
  lang: 'java',
  pkg: 'tree-sitter-java',
  wasm: 'tree-sitter-java.wasm',
  extensions: ['.java'],
  rules: {
    lang: 'java',
    bodyOf: (declaration: Node) => {
      const body = declaration.childForFieldName('body');
      return body && JAVA_BODIES.has(body.type) ? body : null;
    },
  },
};

export const KOTLIN: JvmGrammar = {
  lang: 'kotlin',
  pkg: '@tree-sitter-grammars/tree-sitter-kotlin',
  wasm: 'tree-sitter-kotlin.wasm',
  extensions: ['.kt', '.kts'],
  rules: {
    lang: 'kotlin',
    bodyOf: (declaration: Node) => {
      // Bodies come last; a property's accessors follow its initialiser.
      for (let i = declaration.namedChildCount - 1; i >= 0; i--) {
        const child = declaration.namedChild(i);
        if (child && KOTLIN_BODIES.has(child.type)) {
          const previous = child.previousNamedSibling;
          return previous && (previous.type === 'getter' || previous.type === 'setter') ? previous : child;
        }
      }
      return null;
    },
    // `f(x, *rest)`: the argument's expression is its last named child. A named argument
    // (`f(count = 1)`) may stand anywhere: it stays the value_argument, which no expression
    // describes, so its type is unknown rather than compared with the parameter at its position.
    unwrapArgument: (argument: Node) => (argument.type !== 'value_argument' || argument.children.some((c) => c?.type === '=') ? argument : argument.lastNamedChild ?? argument),
  },
};

export const JVM_GRAMMARS: readonly JvmGrammar[] = [JAVA, KOTLIN];

/** Gradle build scripts are Kotlin, but they configure the build; build-layout.ts reads them. */
export function grammarOf(path: string): JvmGrammar | undefined {
  if (path.endsWith('.gradle.kts')) return undefined;
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  const extension = path.slice(dot);
  return JVM_GRAMMARS.find((g) => g.extensions.includes(extension));
}

/** The grammar and its compiled tags query (queries/<lang>/tags.scm), once per process. */
export async function loadTagger(grammar: JvmGrammar): Promise<Tagger> {
  const { language, query, version } = await loadTagsQuery(grammar.lang, grammar.pkg, grammar.wasm, checkCaptureNames);
  return { grammar, language, query, version };
}
