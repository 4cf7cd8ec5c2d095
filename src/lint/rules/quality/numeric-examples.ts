import { isJsonObject } from '../../../json/json-object.js';
import { paramText, schemaTypes } from '../../tool-view.js';
import { physicalUnitIn } from '../../text-signals.js';
import type { LintRule } from '../../types.js';

/** Texts that already say the value is dimensionless, so there is no unit to get wrong. */
const DIMENSIONLESS = /\b(?:fraction|ratio|factor|proportion|scale|multiplier|dimensionless|unitless)\b|比例|倍数|无单位/i;

/** Texts that tell the model to send the bare number (the guide's first fix for "15N"). */
const NUMBER_ONLY = /\b(?:number only|numbers only|bare number|plain number|no units?|without (?:a |the )?units?|do not (?:add|include|append) (?:a |the )?units?)\b|仅传数字|只传数字|不要带单位|不带单位/i;

/** A name that carries its unit (`force_n`, `x_mm`, `timeout_seconds`, `roll_deg`): the key already says it. */
const UNIT_SUFFIX = /[_-](?:n|nm|kn|mm|cm|m|km|in|ft|deg|degrees|rad|s|sec|secs|seconds|ms|min|mins|minutes|h|hours|hz|khz|kg|g|c|f|k|v|a|w|pa|kpa|bar|psi|rpm|pct|percent|mms|mps)$/i;
const UNIT_SUFFIX_CAMEL = /[a-z0-9](?:N|Nm|Kn|Mm|Cm|M|Km|In|Ft|Deg|Degrees|Rad|S|Sec|Secs|Seconds|Ms|Min|Mins|Minutes|H|Hours|Hz|Khz|Kg|G|C|F|K|V|A|W|Pa|Kpa|Bar|Psi|Rpm|Pct|Percent|Mms|Mps)$/;

const SUFFIXES: ReadonlyArray<[RegExp, string]> = [[/^newton|^n$|牛/i, 'n'], [/^millimet|^mm$|毫米/i, 'mm'], [/^centimet|^cm$|厘米/i, 'cm'], [/^kilomet|^km$/i, 'km'],
  [/^met|^米$/i, 'm'], [/^deg|°|^度$/i, 'deg'], [/^rad|弧度/i, 'rad'], [/^millisec|^ms$|毫秒/i, 'ms'], [/^sec|^秒$/i, 's'], [/^min|分钟/i, 'min'], [/^kilogram|^kg$|千克|公斤/i, 'kg'], [/^percent|%/i, 'pct']];

function suffixFor(unit: string): string {
  for (const [pattern, suffix] of SUFFIXES) if (pattern.test(unit)) return suffix;
  return unit.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * A numeric parameter with a physical unit carries `examples`. The seed guide (§6.2): a model sent
 * `"force": "15N"`; stating "number only, no unit" and adding `"examples": [15]` stopped it. A name
 * that carries the unit, or a text that says "number only", counts as the fix too.
 */
export const numericExamples: LintRule = {
  id: 'quality/numeric-examples',
  family: 'quality',
  defaultSeverity: 'info',
  summary: 'A numeric parameter with a physical unit has `examples` (or says "number only") so models do not send "15N".',
  checkTool(tool, ctx) {
    for (const param of tool.params) {
      const schema = param.schema;
      if (!isJsonObject(schema)) continue;
      const types = schemaTypes(schema);
      if (!types.some((t) => t === 'number' || t === 'integer') || types.includes('string')) continue;
      if (Array.isArray(schema.enum) || schema.const !== undefined) continue;
      if (Array.isArray(schema.examples) && schema.examples.length > 0) continue;
      const text = paramText(param);
      const unit = physicalUnitIn(text);
      if (unit === undefined || DIMENSIONLESS.test(text) || NUMBER_ONLY.test(text) || UNIT_SUFFIX.test(param.name) || UNIT_SUFFIX_CAMEL.test(param.name)) continue;
      const example = typeof schema.default === 'number' ? schema.default : typeof schema.minimum === 'number' ? schema.minimum : typeof schema.maximum === 'number' ? schema.maximum : 10;
      ctx.report({
        pointer: param.pointer,
        message: `numeric parameter "${param.name}" is in ${unit} but gives no example value: models then send the number with its unit ("${example} ${unit}" instead of ${example}) or guess its scale`,
        fix: `add "examples": [${example}] and say "a number only, no unit" in its description, or put the unit in the name (e.g. "${param.name}_${suffixFor(unit)}")`,
      });
    }
  },
};
