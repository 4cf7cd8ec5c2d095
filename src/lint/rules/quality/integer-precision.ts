import { isJsonObject } from '../../../json/json-object.js';
import { childPointer, schemaTypes } from '../../tool-view.js';
import type { LintRule } from '../../types.js';

const LIMIT = Number.MAX_SAFE_INTEGER;
const ID_NAME = /(?:^|_)ids?$|[a-z]Ids?$|^(?:snowflake|uid|uuid|guid|hash|serial|account_number|order_number)$/i;

/**
 * JSON numbers above 2^53 lose precision in JavaScript and many model clients (a 64-bit ID comes
 * back off by a few). Reported when an integer's declared range goes beyond ±(2^53−1), and for
 * unbounded integers named like identifiers, which are typically 64-bit.
 */
export const integerPrecision: LintRule = {
  id: 'quality/integer-precision',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Integer parameters stay within ±(2^53−1); large identifiers are strings.',
  checkTool(tool, ctx) {
    for (const param of tool.params) {
      const schema = param.schema;
      if (!isJsonObject(schema) || !schemaTypes(schema).includes('integer')) continue;
      for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
        const bound = schema[key];
        if (typeof bound !== 'number' || Math.abs(bound) <= LIMIT) continue;
        ctx.report({
          pointer: childPointer(param.pointer, key),
          message: `integer parameter "${param.name}" allows values beyond ±(2^53−1) (${key} ${bound}); they lose precision as JSON numbers`,
          fix: 'bound the range within ±9007199254740991, or send the value as a string with a pattern',
        });
        break;
      }
      const bounded = typeof schema.maximum === 'number' || typeof schema.exclusiveMaximum === 'number';
      if (!bounded && ID_NAME.test(param.name)) {
        ctx.report({
          pointer: param.pointer,
          message: `"${param.name}" is an unbounded integer identifier; 64-bit IDs above 2^53 are silently rounded by JavaScript clients`,
          fix: 'declare it as {"type":"string","pattern":"^[0-9]+$"} or add a maximum ≤ 9007199254740991',
        });
      }
    }
  },
};
