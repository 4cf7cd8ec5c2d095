import { isJsonObject } from '../../../json/json-object.js';
import { childPointer, schemaTypes } from '../../tool-view.js';
import { forEachSchemaNode } from '../schema-nodes.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule } from '../../types.js';

const PARAM_COUNT_LIMITS = { warnAbove: 5, errorAbove: 10 };

/** Each extra parameter is another chance for the model to get a call wrong. */
export const paramCount: LintRule<typeof PARAM_COUNT_LIMITS> = {
  id: 'quality/param-count',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'At most 5 top-level parameters (warning); more than 10 is an error.',
  defaultOptions: PARAM_COUNT_LIMITS,
  prepare: (options) => optionsOfDefaults(PARAM_COUNT_LIMITS, options),
  checkTool(tool, ctx) {
    const count = tool.topLevel.length;
    const { warnAbove, errorAbove } = ctx.prepared;
    if (count <= warnAbove) return;
    const severe = count > errorAbove;
    ctx.report({
      pointer: '/inputSchema/properties',
      severity: severe ? 'error' : undefined,
      message: `${count} top-level parameters (more than ${severe ? errorAbove : warnAbove})`,
      fix: 'split the tool by job, group related values into one object parameter, or give rarely used ones defaults on the server',
    });
  },
};

/** A parameter with a default is optional by nature; requiring it makes the model invent a value. */
export const requiredHasDefault: LintRule = {
  id: 'quality/required-has-default',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'A parameter with a `default` is not listed in `required`.',
  checkTool(tool, ctx) {
    for (const param of tool.params) {
      if (!param.required || !isJsonObject(param.schema) || !Object.prototype.hasOwnProperty.call(param.schema, 'default')) continue;
      const parentPointer = param.pointer.slice(0, param.pointer.lastIndexOf('/properties/'));
      ctx.report({
        pointer: param.pointer,
        message: `parameter "${param.name}" has a default (${JSON.stringify(param.schema.default)}) but is required, so the default never applies`,
        fix: `remove "${param.name}" from ${childPointer(parentPointer, 'required')}`,
      });
    }
  },
};

const NESTING_LIMIT = { max: 3 };

/**
 * Nesting depth counts object and array levels on the way to a value, the root object being 1:
 * `waypoints: [{x,y,z}]` is depth 3. Deeper structures are hard for models to fill correctly.
 */
export const nestingDepth: LintRule<typeof NESTING_LIMIT> = {
  id: 'quality/nesting-depth',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Parameter nesting is at most 3 levels deep (root object = 1).',
  defaultOptions: NESTING_LIMIT,
  prepare: (options) => optionsOfDefaults(NESTING_LIMIT, options),
  checkTool(tool, ctx) {
    const { max } = ctx.prepared;
    const depthOf = new Map<string, number>();
    let deepest: { depth: number; pointer: string } | undefined;
    forEachSchemaNode(tool.descriptor, ({ schema, pointer, visit }) => {
      const parentDepth = visit.parent === undefined ? 0 : depthOf.get(`/inputSchema${visit.parent.pointer}`) ?? 0;
      const types = schemaTypes(schema);
      const container = types.includes('object') || types.includes('array') || isJsonObject(schema.properties) || schema.items !== undefined;
      // Only structural keywords add a level; combinators and $defs keep the depth of where they apply.
      const structural = visit.keyword === undefined || visit.keyword === 'properties' || visit.keyword === 'items' || visit.keyword === 'prefixItems' || visit.keyword === 'additionalProperties';
      const depth = parentDepth + (container && structural ? 1 : 0);
      depthOf.set(pointer, depth);
      if (depth > max && (deepest === undefined || depth > deepest.depth)) deepest = { depth, pointer };
    }, ['inputSchema']);
    if (deepest === undefined) return;
    ctx.report({
      pointer: deepest.pointer,
      message: `parameters nest ${deepest.depth} levels deep (more than ${max})`,
      fix: 'flatten the structure, or split the deep part into its own tool',
    });
  },
};

const COMBINATORS = ['oneOf', 'anyOf', 'allOf'] as const;

/**
 * `oneOf`/`anyOf`/`allOf` in what the model reads: several providers reject them at the root and
 * open-weight models follow them poorly. `anyOf` of a type and null (a nullable field) is common
 * and harmless, so it is not reported.
 */
export const composition: LintRule = {
  id: 'quality/composition',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'oneOf/anyOf/allOf in inputSchema are flagged as a risk.',
  checkTool(tool, ctx) {
    forEachSchemaNode(tool.descriptor, ({ schema, pointer }) => {
      for (const keyword of COMBINATORS) {
        const branches = schema[keyword];
        if (!Array.isArray(branches)) continue;
        if (keyword === 'anyOf' && branches.length === 2 && branches.some((b) => isJsonObject(b) && b.type === 'null')) continue;
        ctx.report({
          pointer: childPointer(pointer, keyword),
          message: `${keyword} ${pointer === '/inputSchema' ? 'at the root of inputSchema (Anthropic rejects this outright)' : `at ${pointer}`}: models follow branching schemas poorly and several providers reject or drop it`,
          fix: 'split into separate tools, one per branch, or flatten into one object with an enum discriminator',
        });
      }
    }, ['inputSchema']);
  },
};
