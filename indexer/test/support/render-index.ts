// Renders a decoded index as annotated source: each file with its occurrences marked under the
// line (`^^^^ call method Repository.save`), then its outline, declarations (with their signature, body and
// doc fingerprints, shortened), unresolved identifiers and problems, then every symbol with its
// declarations, modifiers, signature, doc and edges (from the graph shards), then the file table. Keys are left out: they are hashes, and a
// rendering should change only when what the index says changes.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  defsOf, FILE_FLAGS, FILE_TABLE_SHARD, MANIFEST_FILE, MODIFIERS, occurrencesOf, refCount, refsOf, signatureAt,
  unresolvedCount, unresolvedOf, type ChangeRecord, type ChangeShard, type FileRecord, type FileShard, type FileTable, type GraphShard, type Manifest, type OutlineNode, type SymbolRecord,
  type SymbolShard,
} from '@sextant/format';
import { openShard } from '../../../packages/format/test/support/open-shard.ts';

export function renderIndex(indexDir: string, sources: Map<string, string>): string {
  const manifest = JSON.parse(readFileSync(join(indexDir, MANIFEST_FILE), 'utf8')) as Manifest;
  const symbols = new Map<string, { record: SymbolRecord; shard: SymbolShard }>();
  const files: FileRecord[] = [];
  let fileTable: FileTable | undefined;
  const changes = new Map<string, ChangeRecord>();
  const graph: GraphShard[] = [];
  for (const name of Object.keys(manifest.shards)) {
    const bytes = new Uint8Array(readFileSync(join(indexDir, name)));
    if (name.startsWith('symbols/')) {
      const shard = openShard<SymbolShard>(name, bytes);
      for (const record of shard.records()) symbols.set(record.key, { record, shard });
    } else if (name.startsWith('files/')) {
      files.push(...openShard<FileShard>(name, bytes).files());
    } else if (name.startsWith('changes/')) {
      for (const change of openShard<ChangeShard>(name, bytes).files()) changes.set(change.path, change);
    } else if (name.startsWith('graph/')) {
      graph.push(openShard<GraphShard>(name, bytes));
    } else if (name === FILE_TABLE_SHARD) {
      fileTable = openShard<FileTable>(name, bytes);
    }
  }
  const label = (key: string) => {
    const s = symbols.get(key)?.record;
    if (!s) return `<missing ${key}>`;
    return `${s.kind} ${s.qname}${s.external ? ` [external ${s.external.package}]` : s.path ? ` (${s.path})` : ''}`;
  };

  const out: string[] = [
    `# repo ${manifest.repo}; ${manifest.counts.files} files, ${manifest.counts.symbols} symbols, ${manifest.counts.references} references, ${manifest.counts.edges} edges`,
    ...manifest.skipped.map((s) => `# skipped ${s.path}: ${s.reason} (${s.detail})`),
    ...manifest.warnings.map((w) => `# warning ${w}`),
  ];
  for (const file of files.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    out.push('', `## ${file.path} [${file.lang}${flagNames(file.flags)}]`);
    const lines = (sources.get(file.path) ?? '').split(/\r?\n/);
    const byLine = new Map<number, string[]>();
    for (const { line, column, endLine, endColumn, symbolIndex, kind } of occurrencesOf(file)) {
      const width = endLine === line ? Math.max(1, endColumn - column) : 1;
      const mark = `${' '.repeat(column - 1)}${'^'.repeat(width)} ${kind} ${label(file.syms[symbolIndex]!)}`;
      (byLine.get(line) ?? byLine.set(line, []).get(line)!).push(mark);
    }
    lines.forEach((text, index) => {
      out.push(`${String(index + 1).padStart(4)}| ${text}`);
      for (const mark of byLine.get(index + 1) ?? []) out.push(`    | ${mark}`);
    });
    const outline = (nodes: OutlineNode[], depth: number): void => {
      for (const node of nodes) {
        out.push(`  outline ${'  '.repeat(depth)}${node.kind} ${node.name} ${node.range.join(':')}${node.sym < 0 ? ' (no compiler symbol)' : ''}`);
        outline(node.children, depth + 1);
      }
    };
    outline(file.outline, 0);
    const change = changes.get(file.path);
    if (!change) out.push('  change record: missing');
    const decls = change?.decls ?? [];
    for (const d of decls) {
      const mods = modifierNames(d.mods);
      const container = d.container >= 0 ? ` in ${decls[d.container]?.qname ?? `<bad container ${d.container}>`}` : '';
      const symbol = symbols.has(d.key) ? '' : ' <missing symbol>';
      out.push(`  decl ${d.qname} ${d.kind}${mods.length ? ` [${mods.join(' ')}]` : ''}${container} ${d.range.join(':')}${symbol}`
        + `${d.sig ? ` sig=${d.sig.slice(0, 6)}` : ''}${d.body ? ` body=${d.body.slice(0, 6)}` : ''}${d.doc ? ` doc=${d.doc.slice(0, 6)}` : ''}`);
    }
    if (!change || unresolvedCount(change) === null) out.push('  unresolved: not recorded');
    else {
      for (const { line, column, endLine, endColumn } of unresolvedOf(change)) {
        const text = endLine === line ? (lines[line - 1] ?? '').slice(column - 1, endColumn - 1) : '…';
        out.push(`  unresolved ${line}:${column}-${endLine}:${endColumn} ${text}`);
      }
    }
    for (const r of change?.reexports ?? []) out.push(`  reexport ${r.name} ${r.at.join(':')} ${label(r.key)}`);
    for (const p of file.problems) {
      out.push(`  problem ${p.source} ${p.severity} ${p.line}:${p.column}-${p.endLine}:${p.endColumn} ${p.code ?? ''} ${p.message.split('\n')[0]}`);
      // What the compiler blamed, by label (keys are hashes), sorted so a key change alone reorders nothing.
      if (p.blame) out.push(`    blame ${p.blame.map(label).sort(compareText).join('; ')}`);
      if (p.blameNames) out.push(`    blame names ${p.blameNames.join(', ')}`);
    }
    if (file.problemsOmitted) out.push(`  problems omitted ${file.problemsOmitted}`);
  }
  out.push('', '## symbols');
  // By label, then declaration: keys are hashes, so ordering by them would reorder the rendering
  // whenever the key function changes although nothing indexed did.
  const defLabels = ({ record, shard }: { record: SymbolRecord; shard: SymbolShard }) => {
    const defs: string[] = [];
    for (const d of defsOf(record)) defs.push(`${shard.paths[d.pathIndex]}:${d.line}:${d.column}`);
    return defs;
  };
  const sorted = [...symbols.values()].map((s) => ({ ...s, label: label(s.record.key), defs: defLabels(s) }))
    .sort((a, b) => compareText(a.label, b.label) || compareDefs(a.defs, b.defs));
  for (const { record, shard, defs } of sorted) {
    const mods = modifierNames(record.mods);
    out.push(`${label(record.key)}${record.local ? ' local' : ''}${mods.length ? ` [${mods.join(' ')}]` : ''} refs=${refCount(record)}${defs.length ? ` defs=${defs.join(',')}` : ''}`);
    for (const ref of refsOf(record)) {
      // Occurrences (above) are only what resolution is sure of; name-only candidates are listed here.
      if (ref.confidence === 'candidate') out.push(`    candidate ${ref.kind} at ${shard.paths[ref.pathIndex]}:${ref.line}:${ref.column}`);
      // Which of several declarations (an overload) or call signatures of its type a call resolved to.
      if (ref.decl >= 0) {
        const s = ref.decl < defs.length ? undefined : signatureAt(record, ref.decl - defs.length);
        const to = s ? `call signature ${shard.paths[s.pathIndex]}:${s.line}:${s.column}` : defs[ref.decl];
        out.push(`    ${ref.kind} at ${shard.paths[ref.pathIndex]}:${ref.line}:${ref.column} resolves to ${to}`);
      }
    }
    if (record.signature) out.push(`    signature: ${record.signature}`);
    if (record.doc) out.push(`    doc: ${record.doc}`);
    if (record.container) out.push(`    container: ${label(record.container)}`);
    const edges: string[] = [];
    const holder = (ordinal: number) => graph.find((g) => g.holds(ordinal));
    const node = record.graph >= 0 ? holder(record.graph) : undefined;
    if (record.graph >= 0 && node?.key(record.graph) !== record.key) edges.push(`    <graph node ${record.graph} is not this symbol's>`);
    for (const e of node?.edges(record.graph) ?? []) {
      const site = e.site ? ` at ${e.site.path}:${e.site.line}:${e.site.column}-${e.site.endLine === e.site.line ? '' : `${e.site.endLine}:`}${e.site.endColumn}` : '';
      edges.push(`    ${e.out ? '->' : '<-'} ${e.kind} ${label(holder(e.peer)?.key(e.peer) ?? `<no graph node ${e.peer}>`)}${site}`);
    }
    out.push(...edges.sort());
  }
  out.push('', `## file table (${fileTable?.size ?? 'missing'})`);
  for (let i = 0; i < (fileTable?.size ?? 0); i++) {
    const entry = fileTable!.entry(i);
    out.push(`${entry.path} ${entry.status}${entry.lang ? ` ${entry.lang}` : ''}${flagNames(entry.flags)} ${entry.blob.slice(0, 7)}`);
  }
  return `${out.join('\n')}\n`;
}

function modifierNames(mods: number): string[] {
  return Object.entries(MODIFIERS).filter(([, bit]) => mods & bit).map(([name]) => name);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Declaration lists in source order: path, then line and column as numbers. */
function compareDefs(a: string[], b: string[]): number {
  const position = (def: string | undefined) => (def ?? '').split(':').map((part, i) => (i === 0 ? part : part.padStart(8, '0'))).join(':');
  return compareText(position(a[0]), position(b[0]));
}

function flagNames(flags: number): string {
  const names = Object.entries(FILE_FLAGS).filter(([, bit]) => flags & bit).map(([name]) => name);
  return names.length ? `, ${names.join(', ')}` : '';
}

/** Every file of a fixture directory, by relative path. */
export function readTree(root: string, prefix = ''): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(join(root, prefix)).sort()) {
    const rel = prefix ? `${prefix}/${entry}` : entry;
    if (statSync(join(root, rel)).isDirectory()) for (const [k, v] of readTree(root, rel)) files.set(k, v);
    else files.set(rel, readFileSync(join(root, rel), 'utf8'));
  }
  return files;
}
