const MAX_ECHO = 60;

function truncate(text: string): string {
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO - 3)}...` : text;
}

/** JSON type name of a value as a schema would name it ("integer" is reported as "number"). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Short, truncated rendering of a value with its type, e.g. `string "0.42"`, `number 5`, `array (3 items)`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array (${value.length} item${value.length === 1 ? '' : 's'})`;
  switch (typeof value) {
    case 'string': return `string ${truncate(JSON.stringify(value))}`;
    case 'number': return `number ${String(value)}`;
    case 'boolean': return `boolean ${String(value)}`;
    case 'object': return `object ${truncate(JSON.stringify(value) ?? '{}')}`;
    default: return typeof value;
  }
}

/** A schema value (enum member, const) rendered as short JSON. */
export function renderJson(value: unknown): string {
  return truncate(JSON.stringify(value) ?? String(value));
}

/** Human path of an instance location: "/" for the root, else the JSON pointer. */
export function displayPath(instancePath: string): string {
  return instancePath === '' ? '/' : instancePath;
}

/** "1 character", "3 characters". */
export function plural(count: unknown, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? '' : 's'}`;
}
