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
  /** Keywords sent as they are (the rest is lowered as its row of lowering/table.ts says); `undefined` means every keyword is passed (non-strict hints). */
  keep: ReadonlySet<string> | undefined;
  /** Formats that are kept; others move into the description. `undefined` = all. */
  formats: ReadonlySet<string> | undefined;
  /** Patterns matching this (unsupported regex features) move into the description. */
  forbiddenPattern: RegExp | undefined;
  /** Strict: every property required, optional ones made nullable (OpenAI, not Anthropic). */
  requireAll: boolean;
  /** Recursive `$ref`s are allowed (false: Anthropic strict rejects recursive schemas). */
  recursion: boolean;
  /** Arrays must say what their items are (OpenAI strict: "array schema missing items"). */
  itemsRequired: boolean;
  /** Largest `minItems` kept; larger values move into the description (Anthropic strict: 1). */
  minItemsMax: number | undefined;
  /** `additionalProperties` with a schema (a map) cannot be sent; in strict mode it is rejected. */
  mapsAllowed: boolean;
}

const OPENAI_STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Regex features OpenAI strict does not accept in `pattern`. */
export const OPENAI_FORBIDDEN_PATTERN = /\(\?<?[=!]|\\[1-9]|\\k</;
/** Anthropic strict: "simple regex": no backreferences, lookaround or word boundaries. */
export const ANTHROPIC_FORBIDDEN_PATTERN = /\(\?<?[=!]|\\[1-9]|\\k<|\\[bB]/;

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
  forbiddenPattern: OPENAI_FORBIDDEN_PATTERN,
  mapsAllowed: false,
  requireAll: true,
  recursion: true,
  itemsRequired: true,
  minItemsMax: undefined,
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
  forbiddenPattern: undefined,
  mapsAllowed: true,
  requireAll: false,
  recursion: true,
  itemsRequired: false,
  minItemsMax: undefined,
};

/** Anthropic Messages `input_schema` (non-strict): root must be a plain object, the rest is passed. */
const ANTHROPIC: LoweringPolicy = { ...OPENAI_LOOSE, flattenRootComposition: true };

/**
 * Anthropic strict tool use (grammar-constrained): the structured-outputs subset. Objects closed,
 * optional properties stay optional, no recursion, `minItems` only 0 or 1, numeric and length
 * bounds move into the description.
 */
const ANTHROPIC_STRICT: LoweringPolicy = {
  strictObjects: true,
  flattenRootComposition: true,
  mergeAllOf: true,
  oneOfAsAnyOf: true,
  constAsEnum: false,
  prefixItemsAsAnyOf: true,
  refs: 'top-level-defs',
  openApiTypes: false,
  enumStringsOnly: false,
  keep: new Set([...STRUCTURE, '$ref', '$defs', 'const', 'pattern', 'format', 'default', 'minItems']),
  formats: new Set([...OPENAI_STRICT_FORMATS, 'uri']),
  forbiddenPattern: ANTHROPIC_FORBIDDEN_PATTERN,
  mapsAllowed: false,
  requireAll: false,
  recursion: false,
  itemsRequired: false,
  minItemsMax: 1,
};

/** Anthropic strict budgets, counted across every strict tool of one request. */
export const ANTHROPIC_STRICT_LIMITS = { maxStrictTools: 20, maxOptionalParameters: 24, maxUnionParameters: 16 } as const;

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
  forbiddenPattern: undefined,
  mapsAllowed: true,
  requireAll: false,
  recursion: true,
  itemsRequired: false,
  minItemsMax: undefined,
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
  forbiddenPattern: undefined,
  mapsAllowed: false,
  requireAll: false,
  recursion: true,
  itemsRequired: false,
  minItemsMax: undefined,
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
  /** Strict mode when the caller does not say. */
  defaultStrict: boolean | 'auto';
  /** How schemas are lowered for this provider, in strict mode or not. */
  policy(strict: boolean): LoweringPolicy;
}

const OPENAI_NAMES: NameRule = { allowed: /[A-Za-z0-9_-]/, maxLength: 64, startLetterOrUnderscore: false };

/** Every provider profile by name. */
export const PROFILES: Readonly<Record<ProviderName, ProviderProfile>> = {
  'openai-chat': {
    name: 'openai-chat', label: 'OpenAI Chat Completions', names: OPENAI_NAMES,
    supportsStrict: true, explicitStrict: false, defaultStrict: 'auto', policy: (strict) => (strict ? OPENAI_STRICT : OPENAI_LOOSE),
  },
  'openai-responses': {
    name: 'openai-responses', label: 'OpenAI Responses', names: OPENAI_NAMES,
    supportsStrict: true, explicitStrict: true, defaultStrict: 'auto', policy: (strict) => (strict ? OPENAI_STRICT : OPENAI_LOOSE),
  },
  anthropic: {
    name: 'anthropic', label: 'Anthropic Messages',
    names: { allowed: /[A-Za-z0-9_-]/, maxLength: 128, startLetterOrUnderscore: false },
    // Strict is opt-in here: its request-wide budgets (20 tools, 24 optional, 16 unions) are tight.
    supportsStrict: true, explicitStrict: false, defaultStrict: false, policy: (strict) => (strict ? ANTHROPIC_STRICT : ANTHROPIC),
  },
  gemini: {
    name: 'gemini', label: 'Gemini (parametersJsonSchema)',
    names: { allowed: /[A-Za-z0-9_]/, maxLength: 64, startLetterOrUnderscore: true },
    supportsStrict: false, explicitStrict: false, defaultStrict: false, policy: () => GEMINI_JSON,
  },
  'gemini-legacy': {
    name: 'gemini-legacy', label: 'Gemini (legacy parameters, OpenAPI subset)',
    names: { allowed: /[A-Za-z0-9_]/, maxLength: 64, startLetterOrUnderscore: true },
    supportsStrict: false, explicitStrict: false, defaultStrict: false, policy: () => GEMINI_LEGACY,
  },
};
