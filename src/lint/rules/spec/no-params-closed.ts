
import { isJsonObject } from '../../../json/json-object.js';
import type { LintRule } from '../../types.js';

const ALLOWED_WITH_NO_PARAMS = new Set(['type', 'properties', '$schema', 'title', 'description', '$id', '$comment']);

/**
 * A tool without parameters should say so with `{type:"object", additionalProperties:false}`
 * . `{}` is not even an object schema, and `{type:"object"}` alone invites the model to
 * invent arguments.
 */
export const noParamsClosed: LintRule = {
  id: 'spec/no-params-closed',
  family: 'spec',
  defaultSeverity: 'warning',
  summary: 'A tool with no parameters declares {"type":"object","additionalProperties":false}.',
  checkTool(tool, ctx) {
    const schema = tool.descriptor.inputSchema;
    if (!isJsonObject(schema)) return;
    const keys = Object.keys(schema);
    if (keys.length === 0) {
      ctx.report({
        pointer: '/inputSchema',
        message: 'inputSchema is {}: it does not say that arguments are an object, nor that none are expected',
        fix: 'use {"type":"object","additionalProperties":false} (toolwright lint --fix rewrites it)',
      });
      return;
    }
    if (!keys.every((k) => ALLOWED_WITH_NO_PARAMS.has(k))) return;
    const properties = schema.properties;
    if (properties !== undefined && !(isJsonObject(properties) && Object.keys(properties).length === 0)) return;
    if (schema.type !== 'object') return;
    ctx.report({
      pointer: '/inputSchema',
      message: 'the tool takes no parameters but its inputSchema accepts any object',
      fix: 'add "additionalProperties": false so the model knows to send {} (toolwright lint --fix adds it)',
    });
  },
};
