import { isJsonObject } from '../json/json-object.js';
import { walkSchema } from '../schema/index.js';
import type { SchemaVisit } from '../schema/index.js';
import { HostError } from './host-error.js';
import { PROFILES } from './profiles.js';
import type { ProviderName } from './types.js';

type Json = Record<string, unknown>;

/** One way a tool definition breaks a provider's documented constraints. */
export interface ProviderViolation {
  /** JSON pointer into the provider tool JSON. */
  pointer: string;
  message: string;
}

/** Documented strict-mode limits of OpenAI Structured Outputs. */
export const OPENAI_STRICT_LIMITS = { maxObjectNesting: 10, maxProperties: 5000, maxEnumValues: 1000, maxSchemaChars: 120_000 } as const;

const OPENAI_STRICT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'anyOf', 'description', 'title',
  '$ref', '$defs', 'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems']);
const OPENAI_STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const GEMINI_JSON_KEYWORDS = new Set(['type', 'title', 'description', 'properties', 'required', 'additionalProperties', 'enum', 'format',
  'minimum', 'maximum', 'items', 'prefixItems', 'minItems', 'maxItems', 'anyOf', '$ref', '$defs']);
const GEMINI_SCHEMA_FIELDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'default', 'items', 'minItems', 'maxItems', 'enum',
  'properties', 'required', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'propertyOrdering', 'example']);
const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const ROOT_COMPOSITION = ['oneOf', 'anyOf', 'allOf'];

/** The part of a provider tool JSON holding name, description and schema. */
function parts(provider: ProviderName, json: Json): { name: unknown; schema: unknown; base: string; schemaKey: string } {
  switch (provider) {
    case 'openai-chat': {
      const fn = isJsonObject(json.function) ? json.function : {};
      return { name: fn.name, schema: fn.parameters, base: '/function', schemaKey: 'parameters' };
    }
    case 'openai-responses': return { name: json.name, schema: json.parameters, base: '', schemaKey: 'parameters' };
    case 'anthropic': return { name: json.name, schema: json.input_schema, base: '', schemaKey: 'input_schema' };
    case 'gemini': return { name: json.name, schema: json.parametersJsonSchema, base: '', schemaKey: 'parametersJsonSchema' };
    case 'gemini-legacy': return { name: json.name, schema: json.parameters, base: '', schemaKey: 'parameters' };
  }
}

function isStrict(provider: ProviderName, json: Json): boolean {
  if (provider === 'openai-chat') return isJsonObject(json.function) && json.function.strict === true;
  if (provider === 'openai-responses' || provider === 'anthropic') return json.strict === true;
  return false;
}

/**
 * Check one provider tool JSON against that provider's documented constraints (sources in
 * docs/host.md). Independent of the lowering code on purpose: it is run on every lowered output
 * in the tests, and `mapTool` uses it to decide whether strict mode is possible.
 */
export function checkProviderTool(provider: ProviderName, json: unknown): ProviderViolation[] {
  const profile = PROFILES[provider];
  if (!profile) throw new HostError('unknown_provider', `unknown provider "${String(provider)}"`);
  const out: ProviderViolation[] = [];
  const add = (pointer: string, message: string): void => { out.push({ pointer, message }); };
  if (!isJsonObject(json)) return [{ pointer: '', message: 'tool JSON must be an object' }];
  if ((provider === 'openai-chat' || provider === 'openai-responses') && json.type !== 'function') add('/type', 'must be "function"');
  if (provider === 'openai-responses' && typeof json.strict !== 'boolean') add('/strict', 'Responses tools must carry an explicit boolean strict');
  const { name, schema, base, schemaKey } = parts(provider, json);
  const rule = profile.names;
  if (typeof name !== 'string' || name.length === 0) add(`${base}/name`, 'name is missing');
  else {
    if (name.length > rule.maxLength) add(`${base}/name`, `name is longer than ${rule.maxLength} characters`);
    for (const ch of name) if (!rule.allowed.test(ch)) { add(`${base}/name`, `name contains ${JSON.stringify(ch)}`); break; }
    if (rule.startLetterOrUnderscore && !/^[A-Za-z_]/.test(name)) add(`${base}/name`, 'name must start with a letter or underscore');
  }
  const schemaPointer = `${base}/${schemaKey}`;
  if (!isJsonObject(schema)) {
    add(schemaPointer, 'schema must be an object');
    return out;
  }
  const objectType = provider === 'gemini-legacy' ? 'OBJECT' : 'object';
  if (schema.type !== objectType) add(`${schemaPointer}/type`, `root type must be "${objectType}"`);
  if (!isJsonObject(schema.properties)) add(`${schemaPointer}/properties`, 'root must list properties (an empty object for no arguments)');
  if (provider !== 'openai-chat' && provider !== 'openai-responses' || isStrict(provider, json)) {
    for (const k of ROOT_COMPOSITION) if (k in schema) add(`${schemaPointer}/${k}`, `${k} is not allowed at the root`);
  }
  if (isStrict(provider, json)) {
    if (provider === 'anthropic') checkAnthropicStrict(schema, schemaPointer, add);
    else checkOpenAiStrict(schema, schemaPointer, add);
  }
  else if (provider === 'gemini-legacy') checkGeminiLegacy(schema, schemaPointer, add);
  else if (provider === 'gemini') checkKeywordSubset(schema, schemaPointer, GEMINI_JSON_KEYWORDS, add);
  else walkSchema(schema, (node) => {
    if (typeof node.schema !== 'object') return;
    for (const key of Object.keys(node.schema)) if (key.startsWith('x-')) add(`${schemaPointer}${node.pointer}/${key}`, 'extension keywords are not model-facing');
  });
  return out;
}

function objectNesting(node: SchemaVisit): number {
  let depth = 0;
  for (let n: SchemaVisit | undefined = node; n; n = n.parent) {
    if (typeof n.schema === 'object' && ((n.schema as Json).type === 'object' || (Array.isArray((n.schema as Json).type) && ((n.schema as Json).type as unknown[]).includes('object')))) depth++;
  }
  return depth;
}

function checkOpenAiStrict(schema: Json, at: string, add: (p: string, m: string) => void): void {
  let properties = 0;
  let enumValues = 0;
  if (JSON.stringify(schema).length > OPENAI_STRICT_LIMITS.maxSchemaChars) add(at, `schema text exceeds ${OPENAI_STRICT_LIMITS.maxSchemaChars} characters`);
  walkSchema(schema, (node) => {
    const p = `${at}${node.pointer}`;
    if (typeof node.schema === 'boolean') {
      if (node.keyword !== 'additionalProperties') add(p, 'boolean schemas are not accepted in strict mode');
      return;
    }
    const s = node.schema as Json;
    if (node.keyword === '$defs' && node.parent?.depth !== 0) add(p, '$defs only at the root');
    for (const key of Object.keys(s)) if (!OPENAI_STRICT_KEYWORDS.has(key)) add(`${p}/${key}`, `keyword "${key}" is not supported in strict mode`);
    if (typeof s.$ref === 'string') {
      if (Object.keys(s).length > 1) add(p, '$ref cannot have sibling keywords');
      if (!(s.$ref === '#' || /^#\/\$defs\/[^/]+$/.test(s.$ref))) add(`${p}/$ref`, 'reference can only point to the root or a top-level $defs entry');
      return;
    }
    if (s.type === undefined && s.anyOf === undefined && node.depth > 0) add(p, 'every schema needs a type (or anyOf / $ref)');
    const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : [];
    for (const t of types) if (!JSON_TYPES.has(String(t))) add(`${p}/type`, `unknown type ${JSON.stringify(t)}`);
    if (types.includes('object') || s.properties !== undefined) {
      if (s.additionalProperties !== false) add(p, 'additionalProperties must be false on every object');
      const keys = isJsonObject(s.properties) ? Object.keys(s.properties) : [];
      properties += keys.length;
      const required = Array.isArray(s.required) ? s.required : [];
      for (const k of keys) if (!required.includes(k)) add(`${p}/required`, `property "${k}" must be listed in required`);
      if (objectNesting(node) > OPENAI_STRICT_LIMITS.maxObjectNesting) add(p, `more than ${OPENAI_STRICT_LIMITS.maxObjectNesting} levels of object nesting`);
    }
    if (types.includes('array') && s.items === undefined) add(p, 'array schema missing items');
    if (Array.isArray(s.enum)) enumValues += s.enum.length;
    if (typeof s.format === 'string' && !OPENAI_STRICT_FORMATS.has(s.format)) add(`${p}/format`, `format "${s.format}" is not supported`);
    if (typeof s.pattern === 'string' && /\(\?<?[=!]|\\[1-9]|\\k</.test(s.pattern)) add(`${p}/pattern`, 'lookaround and backreferences are not supported');
  });
  if (properties > OPENAI_STRICT_LIMITS.maxProperties) add(at, `more than ${OPENAI_STRICT_LIMITS.maxProperties} properties in total`);
  if (enumValues > OPENAI_STRICT_LIMITS.maxEnumValues) add(at, `more than ${OPENAI_STRICT_LIMITS.maxEnumValues} enum values in total`);
}

const ANTHROPIC_STRICT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'allOf',
  'description', 'title', 'default', '$ref', '$defs', 'definitions', 'pattern', 'format', 'minItems']);
const ANTHROPIC_STRICT_FORMATS = new Set([...OPENAI_STRICT_FORMATS, 'uri']);

function checkAnthropicStrict(schema: Json, at: string, add: (p: string, m: string) => void): void {
  const refs: Array<{ from: string; to: string; pointer: string }> = [];
  walkSchema(schema, (node) => {
    const p = `${at}${node.pointer}`;
    if (typeof node.schema === 'boolean') return;
    const s = node.schema as Json;
    for (const key of Object.keys(s)) if (!ANTHROPIC_STRICT_KEYWORDS.has(key)) add(`${p}/${key}`, `keyword "${key}" is not supported in strict mode`);
    const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : [];
    if ((types.includes('object') || s.properties !== undefined) && s.additionalProperties !== false) add(p, 'additionalProperties must be false on every object');
    if (typeof s.minItems === 'number' && s.minItems > 1) add(`${p}/minItems`, 'only minItems 0 or 1 is supported');
    if (typeof s.format === 'string' && !ANTHROPIC_STRICT_FORMATS.has(s.format)) add(`${p}/format`, `format "${s.format}" is not supported`);
    if (typeof s.pattern === 'string' && /\(\?<?[=!]|\\[1-9]|\\k<|\\[bB]/.test(s.pattern)) add(`${p}/pattern`, 'only simple regular expressions are supported');
    if (typeof s.$ref === 'string') {
      if (!s.$ref.startsWith('#')) add(`${p}/$ref`, 'only local references are supported');
      const owner = /^\/\$defs\/[^/]+/.exec(node.pointer)?.[0] ?? '';
      const target = /^#(\/\$defs\/[^/]+)?/.exec(s.$ref)?.[1] ?? '';
      refs.push({ from: owner, to: target, pointer: p });
    }
  });
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node === goal) return true;
      if (seen.has(node)) continue;
      seen.add(node);
      for (const r of refs) if (r.from === node) stack.push(r.to);
    }
    return false;
  };
  for (const r of refs) if (reaches(r.to, r.from)) add(r.pointer, 'recursive schemas are not supported in strict mode');
}

function checkGeminiLegacy(schema: Json, at: string, add: (p: string, m: string) => void): void {
  walkSchema(schema, (node) => {
    const p = `${at}${node.pointer}`;
    if (typeof node.schema === 'boolean') {
      // additionalProperties is reported once, as an unknown field of its parent.
      if (node.keyword !== 'additionalProperties') add(p, 'boolean schemas do not exist in the OpenAPI Schema message');
      return;
    }
    const s = node.schema as Json;
    for (const key of Object.keys(s)) if (!GEMINI_SCHEMA_FIELDS.has(key)) add(`${p}/${key}`, `unknown field "${key}" (Gemini rejects the whole request with HTTP 400)`);
    if (s.type === undefined ? s.anyOf === undefined : !(typeof s.type === 'string' && GEMINI_TYPES.has(s.type))) add(`${p}/type`, `type is required and must be one of ${[...GEMINI_TYPES].join(', ')}`);
    if (Array.isArray(s.enum) && s.enum.some((v) => typeof v !== 'string')) add(`${p}/enum`, 'enum values must be strings');
    if (s.items !== undefined && !isJsonObject(s.items)) add(`${p}/items`, 'items must be one schema');
    if (s.type === 'ARRAY' && s.items === undefined) add(p, 'ARRAY needs items');
  });
}

function checkKeywordSubset(schema: Json, at: string, allowed: ReadonlySet<string>, add: (p: string, m: string) => void): void {
  walkSchema(schema, (node) => {
    if (typeof node.schema !== 'object') return;
    const s = node.schema as Json;
    for (const key of Object.keys(s)) if (!allowed.has(key)) add(`${at}${node.pointer}/${key}`, `keyword "${key}" is outside the documented subset`);
    if (typeof s.type === 'string' && !JSON_TYPES.has(s.type)) add(`${at}${node.pointer}/type`, `unknown type ${JSON.stringify(s.type)}`);
  });
}
