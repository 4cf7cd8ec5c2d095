import { isJsonObject } from '../../../json/json-object.js';
import { childPointer, schemaTypes } from '../../tool-view.js';
import { forEachSchemaNode } from '../schema-nodes.js';
import type { LintRule } from '../../types.js';

const PAIRS: ReadonlyArray<[string, string]> = [
  ['minimum', 'maximum'], ['exclusiveMinimum', 'maximum'], ['minimum', 'exclusiveMaximum'], ['exclusiveMinimum', 'exclusiveMaximum'],
  ['minLength', 'maxLength'], ['minItems', 'maxItems'], ['minProperties', 'maxProperties'], ['minContains', 'maxContains'],
];

/** Lower bounds above upper bounds: no value can ever satisfy the schema. */
export const minMaxContradiction: LintRule = {
  id: 'spec/min-max-contradiction',
  family: 'spec',
  defaultSeverity: 'error',
  summary: 'Lower bounds do not exceed upper bounds (minimum ≤ maximum, minLength ≤ maxLength, ...).',
  checkTool(tool, ctx) {
    forEachSchemaNode(tool.descriptor, ({ schema, pointer }) => {
      for (const [low, high] of PAIRS) {
        const a = schema[low];
        const b = schema[high];
        if (typeof a !== 'number' || typeof b !== 'number') continue;
        const exclusive = low.startsWith('exclusive') || high.startsWith('exclusive');
        if (a < b || (!exclusive && a === b)) continue;
        ctx.report({
          pointer: childPointer(pointer, low),
          message: `${low} ${a} ${exclusive && a === b ? 'equals' : 'is greater than'} ${high} ${b}: no value can satisfy this schema`,
          fix: `swap or correct the bounds so that ${low} ${exclusive ? '<' : '≤'} ${high}`,
        });
      }
    });
  },
};

/** `required` names a property that `properties` does not define. */
export const requiredUnknown: LintRule = {
  id: 'spec/required-unknown-property',
  family: 'spec',
  defaultSeverity: 'error',
  summary: '`required` names only properties that `properties` defines.',
  checkTool(tool, ctx) {
    forEachSchemaNode(tool.descriptor, ({ schema, pointer }) => {
      if (!Array.isArray(schema.required)) return;
      // Without "properties" the object is open by design (e.g. a branch adding a requirement), so only judge when they are listed.
      if (!isJsonObject(schema.properties)) return;
      const defined = schema.properties;
      const patterns = isJsonObject(schema.patternProperties);
      const open = schema.additionalProperties !== false && schema.unevaluatedProperties !== false;
      schema.required.forEach((name, i) => {
        if (typeof name !== 'string' || Object.prototype.hasOwnProperty.call(defined, name)) return;
        if (patterns) return;
        ctx.report({
          pointer: childPointer(pointer, 'required', i),
          message: `required names "${name}", which is not among the properties (${Object.keys(defined).join(', ') || 'none'})${open ? '' : ' and additional properties are forbidden, so no value can pass'}`,
          fix: `define "${name}" under properties or remove it from required (check for a typo)`,
        });
      });
    });
  },
};

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function fits(value: unknown, types: readonly string[]): boolean {
  const t = jsonType(value);
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

/** `enum` and `const` values of a type the schema's `type` forbids: those choices can never pass. */
export const enumTypeMismatch: LintRule = {
  id: 'spec/enum-type-mismatch',
  family: 'spec',
  defaultSeverity: 'error',
  summary: '`enum` and `const` values have the type the schema declares.',
  checkTool(tool, ctx) {
    forEachSchemaNode(tool.descriptor, ({ schema, pointer }) => {
      const types = schemaTypes(schema);
      if (types.length === 0) return;
      if (Array.isArray(schema.enum)) {
        schema.enum.forEach((value, i) => {
          if (fits(value, types)) return;
          ctx.report({
            pointer: childPointer(pointer, 'enum', i),
            message: `enum value ${JSON.stringify(value)} is ${jsonType(value)} but the schema's type is ${types.join('|')}, so it can never be accepted`,
            fix: `write the value as ${types[0]} (e.g. ${types[0] === 'string' ? JSON.stringify(String(value)) : 'without quotes'}) or change "type"`,
          });
        });
      }
      if (Object.prototype.hasOwnProperty.call(schema, 'const') && !fits(schema.const, types)) {
        ctx.report({
          pointer: childPointer(pointer, 'const'),
          message: `const ${JSON.stringify(schema.const)} is ${jsonType(schema.const)} but the schema's type is ${types.join('|')}`,
          fix: 'make const match the declared type or change "type"',
        });
      }
    });
  },
};
