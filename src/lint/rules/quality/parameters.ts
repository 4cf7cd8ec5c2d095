import { isJsonObject } from '../../../json/json-object.js';
import { childPointer, paramText, schemaTypes } from '../../tool-view.js';
import { COORDINATE_NAME, COUNT_LIKE_NAME, FRAME, UNIT_OR_RANGE } from '../../text-signals.js';
import { forEachSchemaNode } from '../schema-nodes.js';
import type { LintRule, ParamInfo } from '../../types.js';

function hasDescription(param: ParamInfo): boolean {
  return isJsonObject(param.schema) && typeof param.schema.description === 'string' && param.schema.description.trim() !== '';
}

/** Every parameter has a description: the model reads it to decide what to put there. */
export const paramDescription: LintRule = {
  id: 'quality/param-description',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Every parameter has a description.',
  checkTool(tool, ctx) {
    for (const param of tool.params) {
      if (hasDescription(param) || !isJsonObject(param.schema)) continue;
      ctx.report({
        pointer: param.pointer,
        message: `parameter "${param.name}" has no description`,
        fix: 'describe its meaning, unit and valid range, e.g. "Grip force in newtons, 5 to 30."',
      });
    }
  },
};

function isNumeric(schema: unknown): boolean {
  const types = schemaTypes(schema);
  return types.includes('number') || types.includes('integer');
}

function hasBothBounds(schema: Record<string, unknown>): boolean {
  const low = typeof schema.minimum === 'number' || typeof schema.exclusiveMinimum === 'number';
  const high = typeof schema.maximum === 'number' || typeof schema.exclusiveMaximum === 'number';
  return low && high;
}

/**
 * Numbers need a unit or a range: millimetres read as metres move an arm a thousand times too far.
 * Satisfied by both bounds in the schema, or a unit/range in the parameter's text. Enums and
 * consts are closed sets and need neither.
 */
export const numericUnit: LintRule = {
  id: 'quality/numeric-unit',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Numeric parameters state a unit or a range (in the text or as minimum/maximum).',
  checkTool(tool, ctx) {
    for (const param of tool.params) {
      const schema = param.schema;
      if (!isJsonObject(schema) || !isNumeric(schema)) continue;
      if (Array.isArray(schema.enum) || schema.const !== undefined || hasBothBounds(schema)) continue;
      if (UNIT_OR_RANGE.test(paramText(param))) continue;
      if (schemaTypes(schema).includes('integer') && COUNT_LIKE_NAME.test(param.name)) continue;
      // x/y/z inside a group inherit the unit the group states ("position in millimetres").
      if (param.parent !== undefined && UNIT_OR_RANGE.test(paramText(param.parent))) continue;
      ctx.report({
        pointer: param.pointer,
        message: `numeric parameter "${param.name}" states no unit and no range`,
        fix: 'state the unit and range in the description ("in newtons, 5 to 30") or add minimum and maximum',
      });
    }
  },
};

function isInside(param: ParamInfo, ancestor: ParamInfo): boolean {
  for (let p = param.parent; p !== undefined; p = p.parent) if (p === ancestor) return true;
  return false;
}

function isCoordinate(param: ParamInfo): boolean {
  if (!COORDINATE_NAME.test(param.name)) return false;
  const types = schemaTypes(param.schema);
  return types.length === 0 || types.some((t) => t === 'number' || t === 'integer' || t === 'object' || t === 'array');
}

/**
 * Coordinates state their frame (base, world, camera, ...). Reported once per group: on the
 * top-most coordinate parameter whose text and ancestors' texts never name a frame.
 */
export const coordinateFrame: LintRule = {
  id: 'quality/coordinate-frame',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Coordinates and poses state their reference frame.',
  checkTool(tool, ctx) {
    if (FRAME.test(tool.description)) return;
    const checked = new Set<ParamInfo>();
    for (const param of tool.params) {
      if (!isCoordinate(param)) continue;
      let top = param;
      for (let group = param.parent; group !== undefined; group = group.parent) if (isCoordinate(group)) top = group;
      if (checked.has(top)) continue;
      checked.add(top);
      const texts: string[] = [];
      for (let p: ParamInfo | undefined = top; p !== undefined; p = p.parent) texts.push(paramText(p));
      for (const p of tool.params) if (isInside(p, top)) texts.push(paramText(p));
      if (texts.some((t) => FRAME.test(t))) continue;
      ctx.report({
        pointer: top.pointer,
        message: `coordinate parameter "${top.name}" does not say which frame it is in`,
        fix: 'name the frame in the description, e.g. "in millimetres, relative to the robot base frame"',
      });
    }
  },
};

const LISTED_CHOICES = /\b(?:one of|either|possible values?|allowed values?|valid values?|options? (?:are|is|:)|must be (?:one of|either))\b|可选值|可选|取值为|之一|[\w-]+\s*\|\s*[\w-]+\s*\|\s*[\w-]+|(?:'[\w-]+'|"[\w-]+"|`[\w-]+`)(?:\s*,\s*(?:'[\w-]+'|"[\w-]+"|`[\w-]+`))+\s*,?\s*(?:or|and)\s*(?:'[\w-]+'|"[\w-]+"|`[\w-]+`)/i;

/** A string parameter whose description lists its allowed values should use `enum`. */
export const closedSetEnum: LintRule = {
  id: 'quality/closed-set-enum',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'A closed set of values is an `enum`, not a list in the description.',
  checkTool(tool, ctx) {
    for (const param of tool.params) {
      const schema = param.schema;
      if (!isJsonObject(schema) || !schemaTypes(schema).includes('string')) continue;
      if (Array.isArray(schema.enum) || schema.const !== undefined) continue;
      if (!LISTED_CHOICES.test(paramText(param))) continue;
      ctx.report({
        pointer: param.pointer,
        message: `parameter "${param.name}" lists its allowed values in prose but has no enum`,
        fix: 'add "enum": [...] with the allowed values; the model then cannot send anything else',
      });
    }
  },
};

/**
 * Objects are closed: `additionalProperties:false` (or `unevaluatedProperties:false`) stops the
 * model from inventing parameters that are silently ignored. Only judged in `inputSchema`, on
 * objects that declare `properties`; maps (`additionalProperties` as a schema) are fine.
 */
/** Keywords that give an object schema some shape; without any of them `{"type": "object"}` accepts anything. */
const OBJECT_SHAPE = ['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'maxProperties',
  '$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'const', 'enum', 'dependentSchemas', 'dependentRequired'] as const;

/** A parameter (a property, or an array's items) declared as an object with nothing said about its contents. */
function isBareObjectParameter(schema: Record<string, unknown>, keyword: string | undefined): boolean {
  if (keyword !== 'properties' && keyword !== 'items' && keyword !== 'prefixItems') return false;
  const types = schemaTypes(schema);
  if (!types.includes('object')) return false;
  return !OBJECT_SHAPE.some((k) => Object.prototype.hasOwnProperty.call(schema, k));
}

export const objectClosed: LintRule = {
  id: 'quality/object-closed',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Objects in inputSchema are closed with additionalProperties:false.',
  checkTool(tool, ctx) {
    forEachSchemaNode(tool.descriptor, ({ schema, pointer, visit }) => {
      if (isBareObjectParameter(schema, visit.keyword)) {
        ctx.report({
          pointer,
          message: `${pointer} is declared as a bare {"type": "object"}: it accepts any keys with any values, the same defect as an open object one level down`,
          fix: `declare its "properties" and add "additionalProperties": false at ${childPointer(pointer)}; for a free-form map, say so with "additionalProperties": <schema of the values>`,
        });
        return;
      }
      if (!isJsonObject(schema.properties) || Object.keys(schema.properties).length === 0) return;
      if (schema.additionalProperties !== undefined && schema.additionalProperties !== true) return;
      if (schema.unevaluatedProperties !== undefined && schema.unevaluatedProperties !== true) return;
      // A branch of a combinator is closed (or not) by the schema that holds it.
      if (visit.keyword === 'allOf' || visit.keyword === 'anyOf' || visit.keyword === 'oneOf' || visit.keyword === 'then' || visit.keyword === 'else') return;
      ctx.report({
        pointer,
        message: `the object at ${pointer} accepts properties it does not declare`,
        fix: `add "additionalProperties": false at ${childPointer(pointer)} so unknown arguments are rejected, not silently ignored`,
      });
    }, ['inputSchema']);
  },
};
