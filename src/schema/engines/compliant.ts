import type { Draft, JsonError, JsonSchema, compileSchema as JslCompile } from 'json-schema-library';
import { loadJsl } from '../lazy-deps.js';
import { correctedKeywords } from './jsl-keywords.js';
import { SchemaCompileError } from '../compile-error.js';
import { PatternError } from '../safe-regex.js';
import { normaliseCompliantErrors } from '../normalise-compliant.js';
import type { NormalisedErrors } from '../normalise-fast.js';
import type { Dialect, SchemaError } from '../types.js';

let preparedDrafts: Draft[] | undefined;
function drafts(): Draft[] {
  if (!preparedDrafts) {
    const { core, addFormats } = loadJsl();
    // Upstream never reports a property named "_id" as additional (a convenience for its form
    // tooling); JSON Schema has no such exception.
    core.settings.propertyBlacklist.length = 0;
    preparedDrafts = [core.draft07, core.draft2019, core.draft2020].map((draft) => core.extendDraft(draft, { keywords: correctedKeywords(draft) }));
    addFormats(preparedDrafts);
  }
  return preparedDrafts;
}
const DRAFT_NAME: Record<Dialect, string> = { '2020-12': 'draft-2020-12', '2019-09': 'draft-2019-09', 'draft-07': 'draft-07' };

type JslRoot = ReturnType<typeof JslCompile>;
const baseByDialect = new Map<Dialect, JslRoot>();

/** A root holding the built-in meta-schemas, so `$ref` to them resolves without any fetch. */
function metaSchemaBase(dialect: Dialect): JslRoot {
  let base = baseByDialect.get(dialect);
  if (!base) {
    const { core, remotes: builtInMetaSchemas } = loadJsl();
    base = core.compileSchema({ $schema: builtInMetaSchemas[0]!.$id } as JsonSchema, { drafts: drafts(), draft: DRAFT_NAME[dialect] });
    for (const meta of builtInMetaSchemas) base.addRemoteSchema(String(meta.$id ?? meta.id), structuredClone(meta) as JsonSchema);
    baseByDialect.set(dialect, base);
  }
  return base;
}

/** A private copy of the base whose registry compiling this schema may extend without leaking into others. */
function remoteFor(dialect: Dialect, remotes: Readonly<Record<string, object | boolean>> | undefined): JslRoot {
  const base = remotes ? remotesBase(dialect, remotes) : metaSchemaBase(dialect);
  return { ...base, context: { ...base.context, remotes: { ...base.context.remotes } } } as JslRoot;
}

// Registering remotes compiles each of them, so it is done once per `remotes` object (and dialect).
// A remotes object must therefore not be changed after it has been passed to compileSchema.
const baseByRemotes = new WeakMap<object, Map<Dialect, JslRoot>>();

function remotesBase(dialect: Dialect, remotes: Readonly<Record<string, object | boolean>>): JslRoot {
  let byDialect = baseByRemotes.get(remotes);
  if (!byDialect) baseByRemotes.set(remotes, (byDialect = new Map()));
  let base = byDialect.get(dialect);
  if (!base) {
    const meta = metaSchemaBase(dialect);
    base = { ...meta, context: { ...meta.context, remotes: { ...meta.context.remotes } } } as JslRoot;
    for (const [uri, doc] of Object.entries(remotes)) base.addRemoteSchema(uri, structuredClone(doc) as JsonSchema);
    byDialect.set(dialect, base);
  }
  return base;
}

/** Validates; the first `limit` problems get messages, the rest are counted in `omitted`. */
export interface CompliantValidator { (instance: unknown, limit?: number): NormalisedErrors }

const NONE: NormalisedErrors = Object.freeze({ errors: Object.freeze([]) as unknown as SchemaError[], omitted: 0 });

function pointerOf(location: string): string {
  return location.startsWith('#') ? location.slice(1) : location;
}

/**
 * Compile with json-schema-library: slower, but correct on every keyword of the three dialects
 * (dynamic references, unevaluated*, vocabularies, draft-07 `$ref` siblings). Every `$ref` is
 * resolved here, so an unresolvable one is a compile error rather than a validation-time surprise.
 */
export function compileCompliant(schema: object | boolean, dialect: Dialect, options: { remotes?: Readonly<Record<string, object | boolean>>; formatAssertion: boolean }): CompliantValidator {
  const own = structuredClone(schema);
  let root: JslRoot;
  try {
    root = loadJsl().core.compileSchema(own as JsonSchema, {
      drafts: drafts(), draft: DRAFT_NAME[dialect], remote: remoteFor(dialect, options.remotes),
      formatAssertion: options.formatAssertion, throwOnInvalidSchema: false,
    });
  } catch (error) {
    if (error instanceof PatternError) throw new SchemaCompileError('', error.message);
    throw error;
  }
  const schemaErrors = (root.schemaErrors ?? []).filter((e: JsonError) => e.code === 'schema-error');
  if (schemaErrors.length > 0) {
    const first = schemaErrors[0]!;
    throw new SchemaCompileError(pointerOf(String(first.data.pointer ?? '#')), String(first.data.message ?? first.message));
  }
  for (const node of root.toSchemaNodes()) {
    const ref = node.schema?.$ref;
    if (typeof ref !== 'string') continue;
    const target = (node as unknown as { resolveRef: () => unknown }).resolveRef();
    if (!loadJsl().core.isSchemaNode(target) || loadJsl().core.isJsonError(target)) {
      throw new SchemaCompileError(`${pointerOf(node.schemaLocation)}/$ref`, `cannot resolve $ref ${JSON.stringify(ref)}: not in this document, not in remotes, not a built-in meta-schema (nothing is fetched)`);
    }
  }
  return (instance: unknown, limit = Infinity) => {
    const result = root.validate(instance);
    return result.valid ? NONE : normaliseCompliantErrors(result.errors, own, limit);
  };
}
