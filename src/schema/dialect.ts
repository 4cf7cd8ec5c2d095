import { SchemaCompileError } from './compile-error.js';
import type { Dialect } from './types.js';

/** Canonical meta-schema URI of each dialect. */
export const DIALECT_URI: Readonly<Record<Dialect, string>> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

const KNOWN: ReadonlyMap<string, Dialect> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['https://json-schema.org/draft/2020-12/schema#', '2020-12'],
  ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
  ['https://json-schema.org/draft/2019-09/schema#', '2019-09'],
  ['http://json-schema.org/draft-07/schema#', 'draft-07'],
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
]);

/** Vocabularies each dialect understands; a custom meta-schema may only require these. */
const VOCABULARIES: Readonly<Record<Dialect, ReadonlySet<string>>> = {
  '2020-12': new Set(['core', 'applicator', 'unevaluated', 'validation', 'meta-data', 'format-annotation', 'format-assertion', 'content']
    .map((v) => `https://json-schema.org/draft/2020-12/vocab/${v}`)),
  '2019-09': new Set(['core', 'applicator', 'validation', 'meta-data', 'format', 'content']
    .map((v) => `https://json-schema.org/draft/2019-09/vocab/${v}`)),
  'draft-07': new Set(),
};

/** The dialect a `$schema` URI names, or undefined if it is not one of ours. */
export function dialectOfUri(uri: string): Dialect | undefined {
  return KNOWN.get(uri);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The dialect a schema is written in: no `$schema` means 2020-12; the 2020-12, 2019-09 and
 * draft-07 meta-schema URIs (with or without a trailing "#") select that dialect. Anything else
 * is refused with a SchemaCompileError at "/$schema", unless `remotes` holds that URI as a custom
 * meta-schema which is itself written in a supported dialect and requires only vocabularies that
 * dialect defines.
 */
export function detectDialect(schema: object | boolean, remotes?: Readonly<Record<string, object | boolean>>): Dialect {
  if (typeof schema === 'boolean' || Array.isArray(schema) || schema === null) return '2020-12';
  if (!Object.prototype.hasOwnProperty.call(schema, '$schema')) return '2020-12';
  const uri = (schema as { $schema?: unknown }).$schema;
  if (typeof uri !== 'string') {
    throw new SchemaCompileError('/$schema', `"$schema" must be a string URI, got ${describe(uri)}`);
  }
  return dialectOfMetaSchemaUri(uri, remotes, 0);
}

function dialectOfMetaSchemaUri(uri: string, remotes: Readonly<Record<string, object | boolean>> | undefined, hops: number): Dialect {
  const known = KNOWN.get(uri);
  if (known) return known;
  const meta = remotes ? (remotes[uri] ?? remotes[uri.replace(/#$/, '')]) : undefined;
  if (meta === undefined || hops > 8) {
    throw new SchemaCompileError('/$schema', `unsupported dialect ${describe(uri)}; use ${DIALECT_URI['2020-12']} (the default when "$schema" is absent), ${DIALECT_URI['2019-09']} or ${DIALECT_URI['draft-07']}`);
  }
  if (typeof meta !== 'object' || meta === null) {
    throw new SchemaCompileError('/$schema', `custom meta-schema ${describe(uri)} is not a schema object`);
  }
  const metaUri = (meta as { $schema?: unknown }).$schema;
  if (typeof metaUri !== 'string' || metaUri === uri) {
    throw new SchemaCompileError('/$schema', `custom meta-schema ${describe(uri)} must itself declare a supported "$schema"`);
  }
  const dialect = dialectOfMetaSchemaUri(metaUri, remotes, hops + 1);
  const vocabulary = (meta as { $vocabulary?: unknown }).$vocabulary;
  if (vocabulary !== undefined) {
    if (typeof vocabulary !== 'object' || vocabulary === null || Array.isArray(vocabulary)) {
      throw new SchemaCompileError('/$schema', `custom meta-schema ${describe(uri)} has a malformed "$vocabulary"`);
    }
    for (const [vocab, required] of Object.entries(vocabulary)) {
      if (required === true && !VOCABULARIES[dialect].has(vocab)) {
        throw new SchemaCompileError('/$schema', `custom meta-schema ${describe(uri)} requires unknown vocabulary ${describe(vocab)}`);
      }
    }
  }
  return dialect;
}

/**
 * True when the schema's custom meta-schema (from `remotes`) lists the 2019-09 format or the
 * 2020-12 format-assertion vocabulary: then `format` asserts, whether the vocabulary is required
 * or optional, because this engine implements it.
 */
export function metaSchemaAssertsFormat(schema: object | boolean, remotes?: Readonly<Record<string, object | boolean>>): boolean {
  if (typeof schema !== 'object' || schema === null || !remotes) return false;
  const uri = (schema as { $schema?: unknown }).$schema;
  if (typeof uri !== 'string' || KNOWN.has(uri)) return false;
  const meta = remotes[uri] ?? remotes[uri.replace(/#$/, '')];
  const vocabulary = typeof meta === 'object' && meta !== null ? (meta as { $vocabulary?: unknown }).$vocabulary : undefined;
  if (typeof vocabulary !== 'object' || vocabulary === null) return false;
  return Object.prototype.hasOwnProperty.call(vocabulary, 'https://json-schema.org/draft/2020-12/vocab/format-assertion');
}
