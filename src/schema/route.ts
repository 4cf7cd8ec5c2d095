import { dialectOfUri } from './dialect.js';
import { walkSchema } from './walk.js';
import type { Dialect } from './types.js';
import { isJsonObject } from '../json/json-object.js';

/**
 * Keywords the fast engine gets wrong or handles only partly, and Ajv-only keywords that Ajv acts
 * on but JSON Schema ignores (`nullable: true` would let null through, `$async` returns a promise,
 * ajv-formats' `formatMinimum` family asserts).
 */
const SLOW_KEYWORDS = ['$id', 'id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveRef', '$recursiveAnchor',
  'unevaluatedProperties', 'unevaluatedItems', '$vocabulary',
  'nullable', '$async', 'formatMinimum', 'formatMaximum', 'formatExclusiveMinimum', 'formatExclusiveMaximum'];

/** Keywords that may stand beside a draft-07 `$ref` without changing its meaning for Ajv. */
const INERT_BESIDE_REF = new Set(['$ref', '$comment', 'title', 'description', 'default', 'examples', 'definitions', '$defs', 'readOnly', 'writeOnly', 'deprecated']);

function decodeFragment(ref: string): string | undefined {
  try { return decodeURIComponent(ref.slice(1)); } catch { return undefined; }
}

/**
 * Decide whether Ajv's generated code validates this schema exactly as the spec says. Only a
 * proven subset goes fast: plain keywords, and `$ref`s that are JSON-pointer fragments to a
 * subschema of the same document. Returns the reason when the compliant engine must run it.
 * The suite runner and the differential test check that both engines agree on everything
 * this accepts.
 */
export function fastPathBlocker(schema: object | boolean, dialect: Dialect, formatAssertion: boolean): string | undefined {
  return planFastPath(schema, dialect, formatAssertion).blocker;
}

/** How the fast engine must run a schema, or why it cannot. */
export interface FastPathPlan {
  /** Set when the compliant engine must run the schema. */
  blocker: string | undefined;
  /**
   * A property name the schema mentions also exists on Object.prototype ("constructor", "toString"):
   * Ajv must then test own properties, which is ~3x slower, so it is only turned on when needed.
   */
  ownProperties: boolean;
  /** Some `$ref` is "#": Ajv needs a base URI to resolve the root. */
  refsRoot: boolean;
}

const mentionsInherited = (names: Iterable<unknown>): boolean => {
  for (const name of names) if (typeof name === 'string' && (name in Object.prototype || name === '__proto__')) return true;
  return false;
};

/** See {@link fastPathBlocker}; also says which Ajv configuration the schema needs. */
export function planFastPath(schema: object | boolean, dialect: Dialect, formatAssertion: boolean): FastPathPlan {
  const plan: FastPathPlan = { blocker: undefined, ownProperties: false, refsRoot: false };
  if (typeof schema === 'boolean') return plan;
  const rootSchema = (schema as { $schema?: unknown }).$schema;
  if (rootSchema !== undefined && (typeof rootSchema !== 'string' || dialectOfUri(rootSchema) === undefined)) return { ...plan, blocker: 'custom meta-schema' };
  const visited = new Set<string>();
  const refs: Array<[string, string]> = [];
  let blocker: string | undefined;
  walkSchema(schema, (node) => {
    if (blocker || typeof node.schema === 'boolean') return blocker ? 'skip' : undefined;
    visited.add(node.pointer);
    const s = node.schema as Record<string, unknown>;
    if (node.depth > 0 && s.$schema !== undefined) { blocker = `$schema at ${node.pointer}`; return 'skip'; }
    for (const keyword of SLOW_KEYWORDS) {
      if (Object.prototype.hasOwnProperty.call(s, keyword)) { blocker = `${keyword} at ${node.pointer}`; return 'skip'; }
    }
    if (Object.prototype.hasOwnProperty.call(s, 'enum') && (!Array.isArray(s.enum) || s.enum.length === 0)) { blocker = `empty enum at ${node.pointer}`; return 'skip'; }
    // Ajv's generated code mishandles an own "__proto__" property.
    if ((typeof s.properties === 'object' && s.properties !== null && Object.prototype.hasOwnProperty.call(s.properties, '__proto__'))
      || (Array.isArray(s.required) && s.required.includes('__proto__'))) { blocker = `"__proto__" property at ${node.pointer}`; return 'skip'; }
    if (!plan.ownProperties) {
      for (const key of ['properties', 'dependentRequired', 'dependentSchemas', 'dependencies']) {
        const map = s[key];
        if (isJsonObject(map)) {
          if (mentionsInherited(Object.keys(map))) plan.ownProperties = true;
          for (const list of Object.values(map)) if (Array.isArray(list) && mentionsInherited(list)) plan.ownProperties = true;
        }
      }
      if (Array.isArray(s.required) && mentionsInherited(s.required)) plan.ownProperties = true;
    }
    if (formatAssertion && s.format !== undefined) { blocker = `asserted format at ${node.pointer}`; return 'skip'; }
    if (Object.prototype.hasOwnProperty.call(s, '$ref')) {
      if (typeof s.$ref !== 'string' || !s.$ref.startsWith('#')) { blocker = `non-local $ref at ${node.pointer}`; return 'skip'; }
      if (dialect === 'draft-07' && Object.keys(s).some((k) => !INERT_BESIDE_REF.has(k))) { blocker = `draft-07 $ref with siblings at ${node.pointer}`; return 'skip'; }
      if (s.$ref === '#') plan.refsRoot = true;
      refs.push([node.pointer, s.$ref]);
    }
    return undefined;
  }, { dialect });
  if (blocker) return { ...plan, blocker };
  for (const [at, ref] of refs) {
    const target = decodeFragment(ref);
    if (target === undefined || !visited.has(target)) return { ...plan, blocker: `$ref ${JSON.stringify(ref)} at ${at} does not point at a subschema` };
  }
  return plan;
}

/** Keywords the specialised validator implements (engines/specialised.ts), Ajv's meaning and error records. */
const SPECIALISED_KEYWORDS = new Set(['type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties']);
/** Keywords that never assert (format only while not asserted: planFastPath blocks an asserted one). */
const SPECIALISED_ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'format', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

const isScalar = (value: unknown): boolean => value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number';

/**
 * Whether a fast-path schema is of the common MCP shape the specialised validator generates code
 * for: objects of typed properties, `required`, `additionalProperties`, scalar enums and consts,
 * numeric and length ranges, `pattern`, arrays of such items. No `$ref`, no combinators, no
 * property named like an Object.prototype member. Returns why not, or undefined. The differential
 * fuzz test and the official suite prove it equal to the fast engine on everything it accepts.
 */
export function specialisedBlocker(schema: object | boolean, plan: FastPathPlan): string | undefined {
  if (plan.blocker !== undefined) return plan.blocker;
  if (plan.ownProperties || plan.refsRoot) return 'a property named like an Object.prototype member, or a root $ref';
  if (typeof schema === 'boolean') return 'boolean root schema';
  return subschemaBlocker(schema as Record<string, unknown>, '', true);
}

function subschemaBlocker(s: Record<string, unknown>, at: string, root: boolean): string | undefined {
  for (const key of Object.keys(s)) {
    if (SPECIALISED_ANNOTATIONS.has(key) || (root && key === '$schema')) continue;
    if (!SPECIALISED_KEYWORDS.has(key)) return `keyword ${JSON.stringify(key)} at ${at || '/'}`;
  }
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.every(isScalar))) return `non-scalar enum at ${at || '/'}`;
  if (s.const !== undefined && !isScalar(s.const)) return `non-scalar const at ${at || '/'}`;
  if (s.type !== undefined && typeof s.type !== 'string' && !(Array.isArray(s.type) && s.type.every((t) => typeof t === 'string'))) return `type at ${at || '/'}`;
  const sub = (value: unknown, where: string, allowFalse: boolean): string | undefined => {
    if (value === true || (value === false && allowFalse)) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `subschema at ${where}`;
    return subschemaBlocker(value as Record<string, unknown>, where, false);
  };
  if (s.properties !== undefined) {
    if (typeof s.properties !== 'object' || s.properties === null) return `properties at ${at || '/'}`;
    for (const [name, value] of Object.entries(s.properties)) {
      const blocked = sub(value, `${at}/properties/${name}`, false);
      if (blocked !== undefined) return blocked;
    }
  }
  if (s.additionalProperties !== undefined) { const blocked = sub(s.additionalProperties, `${at}/additionalProperties`, true); if (blocked) return blocked; }
  if (s.items !== undefined) { const blocked = sub(s.items, `${at}/items`, false); if (blocked) return blocked; }
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string'))) return `required at ${at || '/'}`;
  return undefined;
}
