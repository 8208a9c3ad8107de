// File models as they wait for resolution: a file's references and expressions (most of a model)
// packed into typed arrays, its names interned, and unpacked into the plain RefEntry and ExprEntry
// objects resolution reads only while the file, or a file asking about it, is being resolved. A
// whole commit's models stay in memory from extraction to resolution (a file's resolution reads
// other files' declarations and, for inferred types, their expressions), so their size is the
// indexer's memory slope: as objects they cost about 140 bytes a reference (a heap snapshot of
// 800 java.base files), packed about 50. Declarations, scopes and imports stay objects: the symbol
// table and the resolver hold them throughout.
import { ROLES, type ExprEntry, type FileModel, type ImportEntry, type JvmLanguage, type DefEntry, type RefEntry, type ScopeEntry } from './file-model.ts';
import type { ProblemRecord } from '@sextant/format';

/** Int32 fields per reference: role, line, column, endLine, endColumn, start, scope, owner, receiver, importIndex, name, args. */
const REF_STRIDE = 12;
/** The fields packed into a reference's Int32 slots; any other field rides along as it is (`rest`). */
const PACKED_REF_FIELDS = new Set(['role', 'name', 'line', 'column', 'endLine', 'endColumn', 'start', 'scope', 'owner', 'receiver', 'importIndex', 'args']);
const NO_ARGS = -1;
/** Int32 fields per expression: its shape (form and field names), then up to two operands (numbers, or strings of the name table). */
const EXPR_STRIDE = 3;
/** An expression of a shape that does not fit two operands, kept as it is. */
const UNPACKED_SHAPE = -1;

/**
 * Which packed models are unpacked now, oldest first; past `capacity` the oldest is packed again
 * (its objects left to the collector). One per indexer run.
 */
export class UnpackedModels {
  private readonly live = new Set<PackedFileModel>();

  constructor(private readonly capacity = 256) {}

  /** @internal */
  opened(model: PackedFileModel): void {
    this.live.add(model);
    if (this.live.size <= this.capacity) return;
    const oldest = this.live.values().next().value!;
    this.live.delete(oldest);
    oldest.release();
  }
}

/** A FileModel whose refs and exprs are unpacked on first read and dropped when the cache says so. */
export class PackedFileModel implements FileModel {
  declare readonly path: string;
  declare readonly lang: JvmLanguage;
  declare readonly pkg: string;
  declare readonly imports: ImportEntry[];
  declare readonly defs: DefEntry[];
  declare readonly scopes: ScopeEntry[];
  declare readonly problems: ProblemRecord[];
  private readonly refData: Int32Array;
  private readonly argData: Int32Array;
  private readonly exprData: Int32Array;
  /** Reference names and expression type texts, each once. */
  private readonly strings: string[];
  private readonly shapes: ExprShape[];
  /** By reference index, the fields of the references that have more than the packed ones. */
  private readonly rest: Map<number, Partial<RefEntry>> | undefined;
  /** By expression index, the expressions no shape fits. */
  private readonly unshaped: Map<number, ExprEntry> | undefined;
  private unpacked?: { refs: RefEntry[]; exprs: ExprEntry[] };

  constructor(model: FileModel, private readonly cache: UnpackedModels) {
    // Every field but the two packed ones, as it is (those the extractor adds later too).
    const { refs: _refs, exprs: _exprs, ...fields } = model;
    Object.assign(this, fields);
    const strings: string[] = [];
    const stringIndex = new Map<string, number>();
    const intern = (text: string) => {
      let index = stringIndex.get(text);
      if (index === undefined) stringIndex.set(text, (index = strings.push(text) - 1));
      return index;
    };
    const refs = new Int32Array(model.refs.length * REF_STRIDE);
    const args: number[] = [];
    let rest: Map<number, Partial<RefEntry>> | undefined;
    model.refs.forEach((ref, i) => {
      const at = i * REF_STRIDE;
      refs[at] = ROLES.indexOf(ref.role);
      refs[at + 1] = ref.line;
      refs[at + 2] = ref.column;
      refs[at + 3] = ref.endLine;
      refs[at + 4] = ref.endColumn;
      refs[at + 5] = ref.start;
      refs[at + 6] = ref.scope;
      refs[at + 7] = ref.owner;
      refs[at + 8] = ref.receiver;
      refs[at + 9] = ref.importIndex;
      refs[at + 10] = intern(ref.name);
      refs[at + 11] = ref.args ? args.length : NO_ARGS;
      if (ref.args) args.push(ref.args.length, ...ref.args);
      // Flags and texts a few references carry (superclass, supertype text, …), whatever they are.
      let extra: Record<string, unknown> | undefined;
      for (const key in ref) if (!PACKED_REF_FIELDS.has(key)) (extra ??= {})[key] = ref[key as keyof RefEntry];
      if (extra) (rest ??= new Map()).set(i, extra as Partial<RefEntry>);
    });
    const shapes: ExprShape[] = [];
    const shapeIndex = new Map<string, number>();
    const exprs = new Int32Array(model.exprs.length * EXPR_STRIDE);
    let unshaped: Map<number, ExprEntry> | undefined;
    model.exprs.forEach((expr, i) => {
      const at = i * EXPR_STRIDE;
      const fields = Object.keys(expr).filter((key) => key !== 'form');
      const values = fields.map((key) => (expr as unknown as Record<string, unknown>)[key]);
      if (fields.length > 2 || !values.every((v) => typeof v === 'number' || typeof v === 'string')) {
        exprs[at] = UNPACKED_SHAPE;
        (unshaped ??= new Map()).set(i, expr);
        return;
      }
      const strings = values.map((v) => typeof v === 'string');
      const key = `${expr.form}|${fields.map((f, k) => `${f}${strings[k] ? '$' : ''}`).join(',')}`;
      let shape = shapeIndex.get(key);
      if (shape === undefined) shapeIndex.set(key, (shape = shapes.push({ form: expr.form, fields, strings }) - 1));
      exprs[at] = shape;
      values.forEach((v, k) => (exprs[at + 1 + k] = typeof v === 'string' ? intern(v) : v as number));
    });
    this.refData = refs;
    this.argData = Int32Array.from(args);
    this.exprData = exprs;
    this.shapes = shapes;
    this.strings = strings;
    this.rest = rest;
    this.unshaped = unshaped;
  }

  get refs(): RefEntry[] {
    return (this.unpacked ??= this.unpack()).refs;
  }

  get exprs(): ExprEntry[] {
    return (this.unpacked ??= this.unpack()).exprs;
  }

  /** @internal Drops the unpacked objects (UnpackedModels calls it). */
  release(): void {
    this.unpacked = undefined;
  }

  private unpack(): { refs: RefEntry[]; exprs: ExprEntry[] } {
    const { refData: d, argData, strings, rest } = this;
    const refs: RefEntry[] = new Array(d.length / REF_STRIDE);
    for (let i = 0; i < refs.length; i++) {
      const at = i * REF_STRIDE;
      const ref: RefEntry = {
        role: ROLES[d[at]!]!,
        name: strings[d[at + 10]!]!,
        line: d[at + 1]!,
        column: d[at + 2]!,
        endLine: d[at + 3]!,
        endColumn: d[at + 4]!,
        start: d[at + 5]!,
        scope: d[at + 6]!,
        owner: d[at + 7]!,
        receiver: d[at + 8]!,
        importIndex: d[at + 9]!,
      };
      const from = d[at + 11]!;
      if (from !== NO_ARGS) ref.args = Array.from(argData.subarray(from + 1, from + 1 + argData[from]!));
      const extra = rest?.get(i);
      if (extra) Object.assign(ref, extra);
      refs[i] = ref;
    }
    const e = this.exprData;
    const exprs: ExprEntry[] = new Array(e.length / EXPR_STRIDE);
    for (let i = 0; i < exprs.length; i++) {
      const at = i * EXPR_STRIDE;
      const shape = e[at]!;
      if (shape === UNPACKED_SHAPE) {
        exprs[i] = this.unshaped!.get(i)!;
        continue;
      }
      const { form, fields, strings: isString } = this.shapes[shape]!;
      const expr: Record<string, unknown> = { form };
      fields.forEach((field, k) => (expr[field] = isString[k] ? strings[e[at + 1 + k]!] : e[at + 1 + k]));
      exprs[i] = expr as unknown as ExprEntry;
    }
    this.cache.opened(this);
    return { refs, exprs };
  }
}

/** An expression form with its fields in order, and which of them are strings (interned). */
interface ExprShape {
  form: ExprEntry['form'];
  fields: string[];
  strings: boolean[];
}
