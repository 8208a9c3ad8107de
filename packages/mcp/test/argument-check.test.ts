// checkArguments must accept exactly what each tool's zod input accepts: the worker checks calls
// with it (against the generated argument schemas) and never runs zod. Compared here on arguments
// built from every property of every tool's schema: each valid value, each bound just inside and
// just past, wrong types, unknown keys and missing required ones.
import { describe, expect, it } from 'vitest';
import { argumentJsonSchema, checkArguments, describeIssues, READ_TOOLS, unknownKeywords } from '../src/index.ts';

type JsonSchema = Record<string, unknown>;

/** Values for one property: valid ones first, then ones its schema refuses. */
function samples(schema: JsonSchema): unknown[] {
  const out: unknown[] = [undefined, null, {}, 'x', 1.5, true, [], -1, 0, Number.MAX_SAFE_INTEGER + 2];
  if (schema.enum) out.push(...(schema.enum as unknown[]), 'not-an-option');
  switch (schema.type) {
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = (schema.maxLength as number | undefined) ?? 50;
      out.push('a'.repeat(min), 'a'.repeat(Math.max(0, min - 1)), 'a'.repeat(max), 'a'.repeat(max + 1), '😀'.repeat(Math.ceil(max / 2) + 1));
      break;
    }
    case 'integer':
    case 'number':
      for (const bound of [schema.minimum, schema.maximum]) if (typeof bound === 'number') out.push(bound, bound - 1, bound + 1, bound + 0.5);
      break;
    case 'boolean':
      out.push(false, 'true');
      break;
    case 'array': {
      const items = schema.items as JsonSchema;
      const max = (schema.maxItems as number | undefined) ?? 3;
      for (const item of samples(items)) out.push([item], [item, item]);
      const first = samples(items).find((v) => v !== undefined);
      out.push(Array.from({ length: max }, () => first), Array.from({ length: max + 1 }, () => first));
      break;
    }
  }
  return out;
}

describe('checkArguments agrees with the zod inputs', () => {
  it.each(READ_TOOLS.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
    const schema = argumentJsonSchema(tool);
    expect(unknownKeywords(schema)).toEqual([]);
    const properties = schema.properties as Record<string, JsonSchema>;
    const required = (schema.required ?? []) as string[];
    // A base every property can be added to: each required property with its first valid value.
    const base: Record<string, unknown> = {};
    for (const name of required) base[name] = samples(properties[name]!).find((v) => tool.input.safeParse({ ...base, [name]: v }).success || v === 'x');
    const cases: unknown[] = [base, {}, null, [], 'x', { ...base, unknownArgument: 1 }, { ...base, a: 1, b: 2 }];
    for (const [name, property] of Object.entries(properties)) for (const value of samples(property)) cases.push({ ...base, [name]: value });
    let accepted = 0;
    for (const args of cases) {
      const zod = tool.input.safeParse(args);
      const issues = checkArguments(schema, args);
      expect(issues.length === 0, `${JSON.stringify(args)}: zod ${zod.success ? 'accepts' : 'refuses'}; checkArguments: ${describeIssues(issues) || 'accepts'}`).toBe(zod.success);
      if (zod.success) accepted++;
    }
    expect(accepted).toBeGreaterThan(Object.keys(properties).length);
  });

  it('words a refusal as zod does, with the path of each issue', () => {
    const tool = READ_TOOLS.find((t) => t.name === 'find_references')!;
    const issues = checkArguments(argumentJsonSchema(tool), { name: 'x', limit: 100_000, kinds: ['call', 'teleport'], line: 'x', extra: true });
    expect(describeIssues(issues)).toBe([
      'line: Invalid input: expected number, received string',
      'kinds.1: Invalid option: expected one of "definition"|"call"|"new"|"read"|"write"|"type"|"import"|"export"|"inherit"|"jsx"|"decorator"',
      'limit: Too big: expected number to be <=2000',
      '(arguments): Unrecognized key: "extra"',
    ].join('; '));
  });

  it('refuses a schema keyword it does not check, instead of ignoring it', () => {
    expect(unknownKeywords({ type: 'object', properties: { a: { type: 'string', pattern: '^a' } } })).toEqual(['pattern']);
    expect(() => checkArguments({ type: 'string', pattern: '^a' }, 'b')).toThrow(/pattern/);
  });
});
