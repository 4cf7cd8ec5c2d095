import { isJsonObject } from '../../../json/json-object.js';
import type { SchemaError } from '../../../schema/index.js';
import { oneShotValidator } from '../../schema-validity.js';

import { forEachSchemaNode } from '../schema-nodes.js';
import type { LintRule, RuleContext, ToolView } from '../../types.js';

/**
 * Compiles one subschema on its own. `$defs`/`definitions` and `$schema` of the document root are
 * carried over so local `#/$defs/...` references still resolve; a subschema that cannot stand
 * alone (a reference to some other part of the document) is skipped: `spec/schema-valid` already
 * judges the document as a whole.
 */
function compileSubschema(root: Record<string, unknown>, sub: Record<string, unknown>): ((value: unknown) => SchemaError[]) | undefined {
  const standalone: Record<string, unknown> = { ...sub };
  for (const key of ['$schema', '$defs', 'definitions'] as const) {
    if (root[key] !== undefined && standalone[key] === undefined) standalone[key] = root[key];
  }
  return oneShotValidator(standalone);
}

const DIALECT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'default', 'examples']);
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

function hasType(value: string | number | boolean | null, type: unknown): boolean {
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  if (type === 'null') return value === null;
  return typeof value === type;
}

/**
 * True only when a scalar value certainly satisfies a simple 2020-12 subschema (type, enum, const,
 * numeric bounds, string lengths, annotations); undefined means "ask the schema engine". Most
 * `default`s of a real catalog are numbers and enum strings under such schemas, and compiling a
 * validator for each was the costliest part of a lint. Anything unusual — another dialect, any
 * other keyword, a malformed keyword value, a value the check rejects — goes to the engine, so the
 * findings (and their messages) are exactly the engine's.
 */
function plainlyValid(root: Record<string, unknown>, sub: Record<string, unknown>, value: unknown): true | undefined {
  if (root.$schema !== undefined && root.$schema !== DIALECT_2020) return undefined;
  if (value !== null && typeof value !== 'string' && typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) return undefined;
  for (const key of Object.keys(sub)) {
    const keyword = sub[key];
    switch (key) {
      case 'type': {
        const types = Array.isArray(keyword) ? keyword : [keyword];
        if (types.length === 0 || !types.every((t) => typeof t === 'string' && JSON_TYPES.has(t))) return undefined;
        if (!types.some((t) => hasType(value, t))) return undefined;
        break;
      }
      case 'enum':
        if (!Array.isArray(keyword) || !keyword.some((member) => member === value)) return undefined;
        break;
      case 'const':
        if (keyword !== value) return undefined;
        break;
      case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
        if (typeof keyword !== 'number' || !Number.isFinite(keyword)) return undefined;
        break;
      case 'minLength': case 'maxLength':
        if (typeof keyword !== 'number' || !Number.isInteger(keyword) || keyword < 0) return undefined;
        // Without surrogate pairs, UTF-16 length and code-point length agree.
        if (typeof value === 'string' && (/[\uD800-\uDFFF]/.test(value) || (key === 'minLength' ? value.length < keyword : value.length > keyword))) return undefined;
        break;
      default:
        if (!ANNOTATIONS.has(key)) return undefined;
    }
  }
  if (typeof value === 'number') {
    for (const bound of BOUNDS) {
      const limit = sub[bound];
      if (limit === undefined) continue;
      const limitValue = limit as number;
      const ok = bound === 'minimum' ? value >= limitValue : bound === 'maximum' ? value <= limitValue : bound === 'exclusiveMinimum' ? value > limitValue : value < limitValue;
      if (!ok) return undefined;
    }
  }
  return true;
}

function strip(sub: Record<string, unknown>): Record<string, unknown> {
  // default/examples are annotations; leaving them in would not change validation, but keeps the copy honest.
  const { default: _default, examples: _examples, ...rest } = sub;
  return rest;
}

function check(tool: ToolView, ctx: RuleContext, keyword: 'default' | 'examples'): void {
  forEachSchemaNode(tool.descriptor, ({ schema, pointer }) => {
    if (!Object.prototype.hasOwnProperty.call(schema, keyword)) return;
    const field = pointer.startsWith('/inputSchema') ? 'inputSchema' : 'outputSchema';
    const root = tool.descriptor[field];
    if (!isJsonObject(root)) return;
    const values: unknown[] = keyword === 'default' ? [schema.default] : Array.isArray(schema.examples) ? schema.examples : [];
    if (keyword === 'examples' && !Array.isArray(schema.examples)) {
      ctx.report({ pointer: `${pointer}/examples`, message: '"examples" must be an array of example values', fix: 'write "examples": [value, ...]' });
      return;
    }
    if (values.length === 0 || values.every((value) => plainlyValid(root, schema, value) === true)) return;
    const compiled = compileSubschema(root, strip(schema));
    if (compiled === undefined) return;
    values.forEach((value, i) => {
      const errors = compiled(value);
      if (errors.length === 0) return;
      const first = errors[0];
      const at = keyword === 'default' ? `${pointer}/default` : `${pointer}/examples/${i}`;
      ctx.report({
        pointer: at,
        message: `${keyword === 'default' ? 'default' : `example #${i}`} ${JSON.stringify(value)} does not match its own schema: ${first?.message ?? 'invalid'}`,
        fix: keyword === 'default' ? 'change the default to a value the schema accepts (the model and the server both use it)' : 'fix or remove the example; a wrong example teaches the model a wrong call',
      });
    });
  });
}

/** `default` values are valid against the schema they sit in. */
export const defaultValid: LintRule = {
  id: 'spec/default-valid',
  family: 'spec',
  defaultSeverity: 'error',
  summary: '`default` values are valid against their own schema.',
  checkTool: (tool, ctx) => check(tool, ctx, 'default'),
};

/** `examples` values are valid against the schema they sit in. */
export const examplesValid: LintRule = {
  id: 'spec/examples-valid',
  family: 'spec',
  defaultSeverity: 'error',
  summary: '`examples` values are valid against their own schema.',
  checkTool: (tool, ctx) => check(tool, ctx, 'examples'),
};
