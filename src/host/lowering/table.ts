/**
 * The one table of JSON Schema keywords for the lowering: for each keyword, whether a provider
 * takes it (its profile's `keep` list, narrowed by the value checks here), how it is lowered when
 * it does not, and what the loss report says. The keyword pass (lowering/keywords.ts) reads only this
 * table; the keywords marked `pass` are reshaped by the pass named there (lowering/passes.ts order).
 */
import type { LoweringPolicy } from '../profiles.js';
import type { Json } from './context.js';

/** How a keyword the provider does not take is lowered. */
export type KeywordLowering =
  /** Stated in the description text (`(minLength: 1)`), or at the root in the tool description. */
  | 'describe'
  /** Removed everywhere: not model-facing, for any provider. */
  | 'drop'
  /** Rejected in strict mode (the profile cannot send it), described otherwise. */
  | 'reject-in-strict';

/** The node passes that own a keyword (see lowering/passes.ts). */
export type KeywordPass = 'refs' | 'definitions' | 'compose' | 'object-rules' | 'openapi-type';

/** One row of the table. */
export interface KeywordRule {
  /** The JSON Schema vocabulary the keyword belongs to (`extension` for x-*, `openapi` for `nullable`). */
  readonly vocabulary: 'core' | 'applicator' | 'validation' | 'meta-data' | 'format' | 'content' | 'unevaluated' | 'draft-07' | 'extension' | 'openapi';
  readonly lower: KeywordLowering;
  /** Loss note when dropped or rejected. */
  readonly note?: string;
  /**
   * Set when another pass reshapes the keyword first (allOf merged, const as enum, ...). `owns`
   * says when that pass, and not the keyword pass, reports it: the keyword pass then leaves it alone.
   */
  readonly pass?: KeywordPass;
  readonly owns?: (policy: LoweringPolicy, isObjectNode: boolean) => boolean;
  /** Why this value cannot be sent even though the provider takes the keyword (undefined: it can). */
  readonly unsupportedValue?: (value: unknown, policy: LoweringPolicy) => string | undefined;
}

const describe = (vocabulary: KeywordRule['vocabulary'], extra?: Partial<KeywordRule>): KeywordRule => ({ vocabulary, lower: 'describe', ...extra });
const notModelFacing: KeywordRule = { vocabulary: 'core', lower: 'drop', note: 'not model-facing' };
const composed = (vocabulary: KeywordRule['vocabulary']): KeywordRule => describe(vocabulary, { pass: 'compose' });

/** Every keyword the lowering knows by name. A keyword not listed here is judged like a `describe` row. */
export const KEYWORDS: Readonly<Record<string, KeywordRule>> = {
  // core
  $schema: notModelFacing, $id: notModelFacing, $comment: notModelFacing, $anchor: notModelFacing,
  $dynamicAnchor: notModelFacing, $vocabulary: notModelFacing,
  $ref: describe('core', { pass: 'refs', owns: () => true }),
  $dynamicRef: describe('core'),
  $defs: describe('core', { pass: 'definitions' }),
  definitions: describe('draft-07', { pass: 'definitions' }),
  // applicators
  allOf: composed('applicator'), anyOf: composed('applicator'), oneOf: composed('applicator'),
  not: describe('applicator'), if: describe('applicator'), then: describe('applicator'), else: describe('applicator'),
  properties: describe('applicator', { pass: 'object-rules' }),
  patternProperties: describe('applicator', {
    lower: 'reject-in-strict', note: 'strict mode closes every object, so keys matching a pattern could never be sent',
  }),
  additionalProperties: describe('applicator', { pass: 'object-rules', owns: (_policy, isObjectNode) => isObjectNode }),
  propertyNames: describe('applicator'),
  items: composed('applicator'), prefixItems: composed('applicator'), additionalItems: describe('draft-07'),
  contains: describe('applicator'), dependentSchemas: describe('applicator'), dependencies: describe('draft-07'),
  unevaluatedItems: describe('unevaluated'), unevaluatedProperties: describe('unevaluated'),
  // validation
  type: describe('validation', { pass: 'openapi-type' }),
  enum: describe('validation', {
    unsupportedValue: (value, policy) => policy.enumStringsOnly && Array.isArray(value) && value.some((v) => typeof v !== 'string')
      ? 'only string enums are accepted' : undefined,
  }),
  const: composed('validation'),
  multipleOf: describe('validation'), maximum: describe('validation'), exclusiveMaximum: describe('validation'),
  minimum: describe('validation'), exclusiveMinimum: describe('validation'),
  maxLength: describe('validation'), minLength: describe('validation'),
  pattern: describe('validation', {
    unsupportedValue: (value, policy) => policy.forbiddenPattern && typeof value === 'string' && policy.forbiddenPattern.test(value)
      ? 'regex features the provider does not support (lookaround, backreferences, ...)' : undefined,
  }),
  maxItems: describe('validation'),
  minItems: describe('validation', {
    unsupportedValue: (value, policy) => policy.minItemsMax !== undefined && typeof value === 'number' && value > policy.minItemsMax
      ? `only minItems 0..${policy.minItemsMax} is supported` : undefined,
  }),
  uniqueItems: describe('validation'), maxContains: describe('validation'), minContains: describe('validation'),
  maxProperties: describe('validation'), minProperties: describe('validation'),
  required: describe('validation', { pass: 'object-rules' }),
  dependentRequired: describe('validation'),
  // format, content, meta-data
  format: describe('format', {
    unsupportedValue: (value, policy) => policy.formats && !policy.formats.has(String(value))
      ? `format ${JSON.stringify(value)} is not in the provider's list` : undefined,
  }),
  contentEncoding: describe('content'), contentMediaType: describe('content'), contentSchema: describe('content'),
  title: describe('meta-data'), description: describe('meta-data'), default: describe('meta-data'), examples: describe('meta-data'),
  deprecated: describe('meta-data'), readOnly: describe('meta-data'), writeOnly: describe('meta-data'),
  // OpenAPI's null marker: also made by the null-branch and openapi-type passes (they report what they make).
  nullable: describe('openapi'),
  // MCP's header marker, and every other extension keyword (matched by the x- prefix).
  'x-mcp-header': { vocabulary: 'extension', lower: 'drop', note: 'not model-facing: the client sends this argument as an Mcp-Param header' },
  'x-*': { vocabulary: 'extension', lower: 'drop', note: 'extension keyword, not model-facing' },
};

const UNLISTED: KeywordRule = describe('core');

/** The row for a keyword: its own, the `x-*` row for extensions, else a `describe` row. */
export function ruleOf(keyword: string): KeywordRule {
  if (Object.prototype.hasOwnProperty.call(KEYWORDS, keyword)) return KEYWORDS[keyword]!;
  if (keyword.startsWith('x-')) return KEYWORDS['x-*']!;
  return UNLISTED;
}

/** Does the provider take this keyword as it is (before its value is checked)? */
export function providerTakes(keyword: string, policy: LoweringPolicy): boolean {
  const rule = ruleOf(keyword);
  if (rule.lower === 'drop') return false;
  return policy.keep === undefined || policy.keep.has(keyword);
}

/** Why the provider cannot take this keyword's value at this node, or undefined when it can. */
export function unsupportedValue(keyword: string, schema: Json, policy: LoweringPolicy): string | undefined {
  return ruleOf(keyword).unsupportedValue?.(schema[keyword], policy);
}
