// Checks a tool call's arguments against the tool's argument schema: the JSON Schema of its zod
// input with every bound kept (json-schemas.ts argumentJsonSchema), generated ahead of time for the
// worker (tool-catalog.json). A walk over a few dozen keywords costs microseconds, where zod's
// first parse in a fresh isolate builds the schema's parser (milliseconds) and loading the SDK's
// validators (Ajv) costs more, and compiles with `new Function`, which workerd forbids.
//
// Only the keywords zod emits for the tools' inputs are known; a schema with any other keyword is
// refused when it is checked (ARGUMENT_KEYWORDS, and a test over every tool), so a keyword can never
// be ignored silently. Messages are zod's, so both servers word a refusal the same way.

type JsonSchema = Record<string, unknown>;

/** One refusal: where (`kinds.0`; empty for the arguments object) and why. */
export interface ArgumentIssue {
  path: (string | number)[];
  message: string;
}

/** Every keyword checkArguments understands; `description` (and `$schema`) say nothing to check. */
const ARGUMENT_KEYWORDS: ReadonlySet<string> = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'enum', 'const',
  'minLength', 'maxLength', 'minimum', 'maximum', 'items', 'minItems', 'maxItems', 'description', '$schema',
]);

/** The issues of `value` under `schema`; none: the arguments are valid as they are (no defaults or transforms apply). */
export function checkArguments(schema: JsonSchema, value: unknown): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  check(schema, value, [], issues);
  return issues;
}

/** The issues as one line, as InvalidParams messages give them: `line: Too small: expected number to be >=1; ...`. */
export function describeIssues(issues: readonly ArgumentIssue[]): string {
  return issues.map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`).join('; ');
}

/** The keywords of `schema`, at any depth, that checkArguments does not know. */
export function unknownKeywords(schema: JsonSchema): string[] {
  const found = new Set<string>();
  const walk = (node: JsonSchema) => {
    for (const [key, value] of Object.entries(node)) {
      if (!ARGUMENT_KEYWORDS.has(key)) found.add(key);
      if (key === 'properties') for (const child of Object.values(value as Record<string, JsonSchema>)) walk(child);
      if (key === 'items') walk(value as JsonSchema);
    }
  };
  walk(schema);
  return [...found].sort();
}

function check(schema: JsonSchema, value: unknown, path: (string | number)[], issues: ArgumentIssue[]): void {
  for (const key in schema) {
    if (!ARGUMENT_KEYWORDS.has(key)) throw new Error(`argument schema keyword "${key}" (at ${path.join('.') || 'the root'}) is not checked by argument-check.ts`);
  }
  const type = schema.type as string | undefined;
  if (type !== undefined && !hasType(type, value)) {
    issues.push({ path, message: `Invalid input: expected ${type === 'integer' && typeof value === 'number' ? 'int' : type === 'integer' ? 'number' : type}, received ${received(value)}` });
    return;
  }
  if (schema.const !== undefined && value !== schema.const) {
    issues.push({ path, message: `Invalid input: expected ${JSON.stringify(schema.const)}` });
    return;
  }
  const options = schema.enum as unknown[] | undefined;
  if (options && !options.includes(value)) {
    issues.push({ path, message: `Invalid option: expected one of ${options.map((o) => JSON.stringify(o)).join('|')}` });
    return;
  }
  if (typeof value === 'string') {
    // Code points, as JSON Schema and zod count them; a string's UTF-16 length bounds its count from above.
    if (typeof schema.minLength === 'number' && (value.length < schema.minLength || codePoints(value) < schema.minLength)) {
      issues.push({ path, message: `Too small: expected string to have >=${schema.minLength} characters` });
    }
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength && codePoints(value) > schema.maxLength) {
      issues.push({ path, message: `Too big: expected string to have <=${schema.maxLength} characters` });
    }
  } else if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) issues.push({ path, message: `Too small: expected number to be >=${schema.minimum}` });
    if (typeof schema.maximum === 'number' && value > schema.maximum) issues.push({ path, message: `Too big: expected number to be <=${schema.maximum}` });
  } else if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
      issues.push({ path, message: `Too small: expected array to have >=${schema.minItems} items` });
    }
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
      issues.push({ path, message: `Too big: expected array to have <=${schema.maxItems} items` });
    }
    const items = schema.items as JsonSchema | undefined;
    if (items) value.forEach((item, i) => check(items, item, [...path, i], issues));
  } else if (type === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = (schema.required ?? []) as string[];
    for (const [name, property] of Object.entries(properties)) {
      const present = Object.hasOwn(object, name) && object[name] !== undefined;
      if (present) check(property, object[name], [...path, name], issues);
      else if (required.includes(name)) issues.push({ path: [...path, name], message: `Invalid input: expected ${property.type ?? 'value'}, received undefined` });
    }
    if (schema.additionalProperties === false) {
      const unknown = Object.keys(object).filter((name) => !Object.hasOwn(properties, name));
      if (unknown.length) {
        issues.push({ path, message: `Unrecognized key${unknown.length > 1 ? 's' : ''}: ${unknown.map((name) => JSON.stringify(name)).join(', ')}` });
      }
    }
  }
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object': return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array': return Array.isArray(value);
    case 'string': return typeof value === 'string';
    case 'boolean': return typeof value === 'boolean';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isSafeInteger(value);
    case 'null': return value === null;
    default: throw new Error(`argument schema type "${type}" is not checked by argument-check.ts`);
  }
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function received(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'NaN';
  return typeof value;
}
