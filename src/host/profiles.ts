import type { ProviderName } from './types.js';

/** How `$ref` is sent to a provider. */
export type RefStyle =
  /** Passed through unchanged (non-strict OpenAI, Anthropic: schemas are hints). */
  | 'keep'
  /** Only `#` and `#/$defs/<name>` are sent; other local refs are inlined (OpenAI strict, Gemini JSON). */
  | 'top-level-defs'
  /** Every ref is inlined; recursion is cut after a few levels (Gemini legacy `parameters`). */
  | 'inline';

/** Provider name rules (see docs/host.md for sources). */
export interface NameRule {
  /** Characters allowed anywhere in the name. */
  allowed: RegExp;
  maxLength: number;
  /** Must the first character be a letter or underscore? */
  startLetterOrUnderscore: boolean;
}

/**
 * One provider profile as data: what its request shape is, which keywords it accepts, and how the
 * lowering treats the rest. Every rule cites its source in docs/host.md (verified 2026-11).
 */
export interface LoweringPolicy {
  /** Close every object, require every property, make optional ones nullable (OpenAI strict). */
  strictObjects: boolean;
  /** Root `oneOf`/`anyOf`/`allOf` must be merged into one object (Anthropic, OpenAI strict, Gemini). */
  flattenRootComposition: boolean;
  /** Nested `allOf` merged into its parent schema. */
  mergeAllOf: boolean;
  /** Nested `oneOf` sent as `anyOf` (exclusivity stays a server-side check). */
  oneOfAsAnyOf: boolean;
  /** `const` sent as a one-value `enum`. */
  constAsEnum: boolean;
  /** `prefixItems` turned into `items: {anyOf: [...]}` with the positions in the description. */
  prefixItemsAsAnyOf: boolean;
  refs: RefStyle;
  /** Type spelled as the OpenAPI `Type` enum (STRING, OBJECT, ...) with `nullable` for null. */
  openApiTypes: boolean;
  /** `enum` may hold only strings (Gemini legacy). */
  enumStringsOnly: boolean;
  /** Keywords sent as they are; `undefined` means every keyword is passed (non-strict hints). */
  keep: ReadonlySet<string> | undefined;
  /** Formats that are kept; others move into the description. `undefined` = all. */
  formats: ReadonlySet<string> | undefined;
  /** Patterns with lookaround or backreferences move into the description. */
  simplePatternsOnly: boolean;
  /** `additionalProperties` with a schema (a map) cannot be sent; in strict mode it is rejected. */
  mapsAllowed: boolean;
}

/** Keywords no provider needs: they are dropped everywhere (x-* extensions included). */
export const NOT_MODEL_FACING: ReadonlySet<string> = new Set(['$schema', '$id', '$comment', '$anchor', '$dynamicAnchor', '$vocabulary']);

const OPENAI_STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

const STRUCTURE = ['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'anyOf', 'description', 'title'];

/** OpenAI Structured Outputs subset ("Supported schemas"). */
const OPENAI_STRICT: LoweringPolicy = {
  strictObjects: true,
  flattenRootComposition: true,
  mergeAllOf: true,
  oneOfAsAnyOf: true,
  constAsEnum: true,
  prefixItemsAsAnyOf: true,
  refs: 'top-level-defs',
  openApiTypes: false,
  enumStringsOnly: false,
  keep: new Set([...STRUCTURE, '$ref', '$defs', 'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems']),
  formats: OPENAI_STRICT_FORMATS,
  simplePatternsOnly: true,
  mapsAllowed: false,
};

/** Non-strict OpenAI: the schema is a hint rendered into the prompt; everything passes. */
const OPENAI_LOOSE: LoweringPolicy = {
  strictObjects: false,
  flattenRootComposition: false,
  mergeAllOf: false,
  oneOfAsAnyOf: false,
  constAsEnum: false,
  prefixItemsAsAnyOf: false,
  refs: 'keep',
  openApiTypes: false,
  enumStringsOnly: false,
  keep: undefined,
  formats: undefined,
  simplePatternsOnly: false,
  mapsAllowed: true,
};

/** Anthropic Messages `input_schema` (non-strict): root must be a plain object, the rest is passed. */
const ANTHROPIC: LoweringPolicy = { ...OPENAI_LOOSE, flattenRootComposition: true };

/** Gemini `parametersJsonSchema`: the documented JSON Schema subset; the rest is ignored by the model, so it is stated in text. */
const GEMINI_JSON: LoweringPolicy = {
  strictObjects: false,
  flattenRootComposition: true,
  mergeAllOf: true,
  oneOfAsAnyOf: true,
  constAsEnum: true,
  prefixItemsAsAnyOf: false,
  refs: 'top-level-defs',
  openApiTypes: false,
  enumStringsOnly: false,
  keep: new Set([...STRUCTURE, '$ref', '$defs', 'format', 'minimum', 'maximum', 'prefixItems', 'minItems', 'maxItems']),
  formats: new Set(['date-time', 'date', 'time']),
  simplePatternsOnly: false,
  mapsAllowed: true,
};

/** Gemini legacy `parameters`: the OpenAPI 3.0 `Schema` message; any other field fails the whole request (HTTP 400). */
const GEMINI_LEGACY: LoweringPolicy = {
  strictObjects: false,
  flattenRootComposition: true,
  mergeAllOf: true,
  oneOfAsAnyOf: true,
  constAsEnum: true,
  prefixItemsAsAnyOf: true,
  refs: 'inline',
  openApiTypes: true,
  enumStringsOnly: true,
  keep: new Set(['type', 'format', 'title', 'description', 'nullable', 'items', 'minItems', 'maxItems', 'enum', 'properties', 'required',
    'minProperties', 'maxProperties', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf']),
  formats: new Set(['date-time', 'enum', 'int32', 'int64', 'float', 'double']),
  simplePatternsOnly: false,
  mapsAllowed: false,
};

/** Static facts about one provider. */
export interface ProviderProfile {
  name: ProviderName;
  /** Human name for reports. */
  label: string;
  names: NameRule;
  /** Can this provider constrain decoding to the schema (`strict`)? */
  supportsStrict: boolean;
  /** Does the request always carry an explicit `strict` (OpenAI Responses: omitted means "try strict")? */
  explicitStrict: boolean;
  policy(strict: boolean): LoweringPolicy;
}

const OPENAI_NAMES: NameRule = { allowed: /[A-Za-z0-9_-]/, maxLength: 64, startLetterOrUnderscore: false };

/** Every provider profile by name. */
export const PROFILES: Readonly<Record<ProviderName, ProviderProfile>> = {
  'openai-chat': {
    name: 'openai-chat', label: 'OpenAI Chat Completions', names: OPENAI_NAMES,
    supportsStrict: true, explicitStrict: false, policy: (strict) => (strict ? OPENAI_STRICT : OPENAI_LOOSE),
  },
  'openai-responses': {
    name: 'openai-responses', label: 'OpenAI Responses', names: OPENAI_NAMES,
    supportsStrict: true, explicitStrict: true, policy: (strict) => (strict ? OPENAI_STRICT : OPENAI_LOOSE),
  },
  anthropic: {
    name: 'anthropic', label: 'Anthropic Messages',
    names: { allowed: /[A-Za-z0-9_-]/, maxLength: 128, startLetterOrUnderscore: false },
    supportsStrict: false, explicitStrict: false, policy: () => ANTHROPIC,
  },
  gemini: {
    name: 'gemini', label: 'Gemini (parametersJsonSchema)',
    names: { allowed: /[A-Za-z0-9_]/, maxLength: 64, startLetterOrUnderscore: true },
    supportsStrict: false, explicitStrict: false, policy: () => GEMINI_JSON,
  },
  'gemini-legacy': {
    name: 'gemini-legacy', label: 'Gemini (legacy parameters, OpenAPI subset)',
    names: { allowed: /[A-Za-z0-9_]/, maxLength: 64, startLetterOrUnderscore: true },
    supportsStrict: false, explicitStrict: false, policy: () => GEMINI_LEGACY,
  },
};
