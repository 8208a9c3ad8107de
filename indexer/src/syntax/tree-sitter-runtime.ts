// The process-wide web-tree-sitter runtime: initialises the wasm runtime once and loads grammar
// wasm files from their registry packages and tags queries from queries/, so every user of
// tree-sitter in the indexer (the syntactic layer, the JVM and tags indexers) shares one runtime,
// one Language per grammar file and one compiled query per language.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';

export interface Grammar {
  language: Language;
  /** Package name and version the grammar came from, for the manifest's parser versions. */
  pkg: string;
  version: string;
}

const require = createRequire(import.meta.url);

let initialised: Promise<string> | undefined;
const grammars = new Map<string, Promise<Language>>();

/**
 * Initialises web-tree-sitter once per process and resolves to web-tree-sitter's version.
 * Parser.init replaces the wasm instance, invalidating every Language and Parser made before, so
 * it never runs when someone else in the process already has.
 */
export function ensureParserInit(): Promise<string> {
  initialised ??= init().catch((error: unknown) => {
    initialised = undefined; // let a later call retry instead of caching the failure forever
    throw error;
  });
  return initialised;
}

async function init(): Promise<string> {
  const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
  if (!runtimeReady()) {
    // Locate the runtime wasm explicitly: its default lookup relies on import.meta.url of the
    // bundle, which breaks as soon as anything re-bundles or relocates web-tree-sitter.
    await Parser.init({ locateFile: (file: string) => (file === 'web-tree-sitter.wasm' ? runtimeWasm : file) });
  }
  return packageVersion(join(dirname(runtimeWasm), 'package.json'));
}

function runtimeReady(): boolean {
  try {
    new Parser().delete();
    return true;
  } catch {
    return false;
  }
}

/** Loads `<pkg>/<wasm>` (once per file and process) after initialising the runtime. */
export async function loadGrammar(pkg: string, wasm: string): Promise<Grammar> {
  await ensureParserInit();
  const manifest = require.resolve(`${pkg}/package.json`);
  const wasmPath = join(dirname(manifest), wasm);
  let language = grammars.get(wasmPath);
  if (!language) {
    language = readFile(wasmPath).then((bytes) => Language.load(bytes));
    grammars.set(wasmPath, language);
    language.catch(() => grammars.delete(wasmPath));
  }
  return { language: await language, pkg, version: await packageVersion(manifest) };
}

export async function packageVersion(manifestPath: string): Promise<string> {
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/**
 * A grammar with its tags query `queries/<lang>/tags.scm` compiled, once per process and language;
 * `check` refuses captures its extractor would not read (a typo there would be a silent loss).
 */
export function loadTagsQuery(lang: string, pkg: string, wasm: string, check: (query: Query, lang: string) => void): Promise<Grammar & { query: Query }> {
  let loaded = tagsQueries.get(lang);
  if (!loaded) {
    loaded = compileTagsQuery(lang, pkg, wasm, check);
    tagsQueries.set(lang, loaded);
    loaded.catch(() => tagsQueries.delete(lang));
  }
  return loaded;
}

const QUERY_DIR = new URL('../../queries/', import.meta.url);
const tagsQueries = new Map<string, Promise<Grammar & { query: Query }>>();

async function compileTagsQuery(lang: string, pkg: string, wasm: string, check: (query: Query, lang: string) => void): Promise<Grammar & { query: Query }> {
  const grammar = await loadGrammar(pkg, wasm);
  const source = await readFile(new URL(`${lang}/tags.scm`, QUERY_DIR), 'utf8');
  let query: Query;
  try {
    query = new Query(grammar.language, source);
  } catch (error) {
    throw new Error(`Tags query for ${lang} does not compile: ${error instanceof Error ? error.message : String(error)}`);
  }
  check(query, lang);
  return { ...grammar, query };
}
