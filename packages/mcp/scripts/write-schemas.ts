// Writes schemas/ from the code: `npm run schemas -w @sextant/mcp` (tsx scripts/write-schemas.ts).
// schemas/tools/ ends up holding exactly the generated files: files of tools that no longer exist
// are removed, so the directory never advertises a tool the server does not serve.
/// <reference types="node" />
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaFiles, TOOL_CATALOG_FILE, toolCatalogSource } from './schema-files.ts';

export const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

export async function writeSchemas(root: string = SCHEMAS_DIR): Promise<{ written: string[]; unchanged: string[]; removed: string[] }> {
  const files = schemaFiles();
  const report = { written: [] as string[], unchanged: [] as string[], removed: [] as string[] };
  await mkdir(join(root, 'tools'), { recursive: true });
  for (const name of (await readdir(join(root, 'tools'))).sort()) {
    if (!files.has(`tools/${name}`)) {
      await rm(join(root, 'tools', name), { recursive: true, force: true });
      report.removed.push(`tools/${name}`);
    }
  }
  for (const [path, text] of files) {
    const target = join(root, path);
    // Leave unchanged files untouched so their mtimes (and any build cache keyed on them) stay put.
    const current = await readFile(target, 'utf8').catch(() => undefined);
    if (current === text) {
      report.unchanged.push(path);
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
    report.written.push(path);
  }
  // The worker's catalog, beside the code that reads it (not published: schemas/ is for clients).
  if (root === SCHEMAS_DIR) {
    const target = join(root, TOOL_CATALOG_FILE);
    const text = toolCatalogSource();
    if ((await readFile(target, 'utf8').catch(() => undefined)) === text) report.unchanged.push(TOOL_CATALOG_FILE);
    else {
      await writeFile(target, text);
      report.written.push(TOOL_CATALOG_FILE);
    }
  }
  return report;
}

// Run as a script, not when imported.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { written, unchanged, removed } = await writeSchemas();
  const where = relative(process.cwd(), SCHEMAS_DIR) || '.';
  for (const path of written) process.stdout.write(`wrote ${join(where, path)}\n`);
  for (const path of removed) process.stdout.write(`removed ${join(where, path)}\n`);
  process.stdout.write(`${written.length} written, ${unchanged.length} unchanged, ${removed.length} removed in ${where}\n`);
}
