/**
 * The one implementation of the `x-mcp-header` rules of MCP 2026-07-28 (digest ..R-86):
 * scanning an inputSchema for annotations, encoding and decoding `Mcp-Param-*` values (including the
 * `=?base64?...?=` sentinel), and comparing a header with the body value. The server, the client and
 * the linter all use this module.
 */
import { dialectOfUri, walkSchema } from '../schema/index.js';
import { hasMemberNamed } from '../json/has-member.js';

/** The JSON Schema keyword that asks clients to mirror a property into `Mcp-Param-{Name}`. */
export const X_MCP_HEADER = 'x-mcp-header';

/** Header name prefix for mirrored parameters. */
export const PARAM_HEADER_PREFIX = 'Mcp-Param-';

/** The scalar types a mirrored property may have. */
export type HeaderValueType = 'string' | 'integer' | 'boolean';

/** A valid `x-mcp-header` annotation. */
export interface HeaderAnnotation {
  /** The `{Name}` of `Mcp-Param-{Name}`, as written in the schema. */
  name: string;
  /** Full header name, e.g. `Mcp-Param-Region`. */
  headerName: string;
  /** Lower-case header name, as node:http and `Headers` expose it. */
  headerKey: string;
  /** Property names from the root of `arguments` to the mirrored value. */
  path: readonly string[];
  /** JSON Pointer of the annotated property schema inside the inputSchema. */
  pointer: string;
  /** The property's JSON type, which decides how the value is written into the header. */
  type: HeaderValueType;
}

/** Why an annotation is invalid. Any problem invalidates the whole tool. */
export interface HeaderAnnotationProblem {
  /** JSON Pointer of the schema carrying the offending annotation. */
  pointer: string;
  /** Which rule the annotation breaks. */
  code:
    | 'not-a-string'
    | 'empty'
    | 'not-a-token'
    | 'duplicate'
    | 'not-statically-reachable'
    | 'unsupported-type'
    | 'integer-out-of-range';
  /** Human-readable explanation naming the annotation and its pointer. */
  message: string;
}

/** Result of {@link scanHeaderAnnotations}. */
export interface HeaderScan {
  /** Every valid annotation, in schema order. */
  annotations: HeaderAnnotation[];
  /** Every invalid annotation; any problem invalidates the whole tool. */
  problems: HeaderAnnotationProblem[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The property path if `pointer` is a pure chain of `properties` keys from the root
 * (`/properties/a/properties/b` -> `['a','b']`), else null.
 */
function staticPropertyPath(pointer: string): string[] | null {
  if (pointer === '') return null;
  const tokens = pointer.split('/').slice(1);
  if (tokens.length % 2 !== 0) return null;
  const path: string[] = [];
  for (let i = 0; i < tokens.length; i += 2) {
    if (tokens[i] !== 'properties') return null;
    path.push(unescapeToken(tokens[i + 1] as string));
  }
  return path;
}

function checkIntegerBounds(schema: Record<string, unknown>): boolean {
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
    const bound = schema[key];
    if (typeof bound === 'number' && Math.abs(bound) > MAX_SAFE + (key.startsWith('exclusive') ? 1 : 0)) return false;
  }
  return true;
}

/**
 * Finds every `x-mcp-header` annotation in an inputSchema and checks each constraint of the spec:
 * non-empty RFC 9110 token, no control characters, unique case-insensitively, only on properties of
 * type integer/string/boolean, only on properties reachable from the root through `properties`
 * alone, integer bounds within +/-(2^53-1).
 */
export function scanHeaderAnnotations(inputSchema: unknown): HeaderScan {
  const annotations: HeaderAnnotation[] = [];
  const problems: HeaderAnnotationProblem[] = [];
  if (typeof inputSchema !== 'object' || inputSchema === null) return { annotations, problems };
  // Most schemas carry no annotation anywhere; only those that do pay for the pointer-tracking walk.
  if (!hasMemberNamed(inputSchema, X_MCP_HEADER)) return { annotations, problems };
  const seen = new Map<string, string>();
  const declared = (inputSchema as { $schema?: unknown }).$schema;
  const dialect = (typeof declared === 'string' ? dialectOfUri(declared) : undefined) ?? '2020-12';
  walkSchema(inputSchema, ({ schema, pointer }) => {
    if (typeof schema !== 'object' || schema === null || !Object.prototype.hasOwnProperty.call(schema, X_MCP_HEADER)) return;
    const node = schema as Record<string, unknown>;
    const value = node[X_MCP_HEADER];
    const at = pointer === '' ? 'the schema root' : pointer;
    if (typeof value !== 'string') {
      problems.push({ pointer, code: 'not-a-string', message: `x-mcp-header at ${at} must be a string, got ${describe(value)}` });
      return;
    }
    if (value.length === 0) {
      problems.push({ pointer, code: 'empty', message: `x-mcp-header at ${at} must not be empty` });
      return;
    }
    if (!TOKEN.test(value)) {
      problems.push({
        pointer,
        code: 'not-a-token',
        message: `x-mcp-header ${JSON.stringify(value)} at ${at} is not an HTTP token (allowed: letters, digits and !#$%&'*+-.^_\`|~)`,
      });
      return;
    }
    const path = staticPropertyPath(pointer);
    if (path === null) {
      problems.push({
        pointer,
        code: 'not-statically-reachable',
        message: `x-mcp-header ${JSON.stringify(value)} at ${at} is not on a property reachable from the root through "properties" alone`,
      });
      return;
    }
    const type = node['type'];
    if (type !== 'string' && type !== 'integer' && type !== 'boolean') {
      problems.push({
        pointer,
        code: 'unsupported-type',
        message: `x-mcp-header ${JSON.stringify(value)} at ${at} is on a property of type ${JSON.stringify(type ?? null)}; only "string", "integer" or "boolean" may be mirrored`,
      });
      return;
    }
    if (type === 'integer' && !checkIntegerBounds(node)) {
      problems.push({
        pointer,
        code: 'integer-out-of-range',
        message: `x-mcp-header ${JSON.stringify(value)} at ${at} allows integers beyond +/-(2^53-1)`,
      });
      return;
    }
    const key = value.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({
        pointer,
        code: 'duplicate',
        message: `x-mcp-header ${JSON.stringify(value)} at ${at} duplicates the one at ${earlier} (names compare case-insensitively)`,
      });
      return;
    }
    seen.set(key, at);
    annotations.push({ name: value, headerName: PARAM_HEADER_PREFIX + value, headerKey: (PARAM_HEADER_PREFIX + value).toLowerCase(), path, pointer, type });
  }, { dialect });
  return { annotations, problems };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// A literal header value may hold visible ASCII, space and tab only; anything else needs the sentinel.
const LITERAL_SAFE = /^[\x20-\x7e\t]*$/;
const NEEDS_SENTINEL = /[^\x20-\x7e]|^[ \t]|[ \t]$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Encodes a body value as an `Mcp-Param-*` (or `Mcp-Name`) header value. */
export function encodeHeaderValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`Cannot mirror ${value} into a header: only integers within +/-(2^53-1) are allowed`);
    return String(value);
  }
  if (NEEDS_SENTINEL.test(value) || (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX))) {
    return SENTINEL_PREFIX + Buffer.from(value, 'utf8').toString('base64') + SENTINEL_SUFFIX;
  }
  return value;
}

/** Result of {@link decodeHeaderValue}. */
export type DecodedHeaderValue = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Decodes a received header value: surrounding whitespace is ignored; a value of the exact form
 * `=?base64?{Base64}?=` is decoded as UTF-8; anything else is taken literally.
 */
export function decodeHeaderValue(raw: string): DecodedHeaderValue {
  const value = raw.trim();
  if (value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length && value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)) {
    const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
    if (!BASE64.test(encoded)) return { ok: false, reason: 'invalid Base64 inside =?base64?...?=' };
    try {
      return { ok: true, value: utf8.decode(Buffer.from(encoded, 'base64')) };
    } catch {
      return { ok: false, reason: 'Base64 inside =?base64?...?= is not UTF-8' };
    }
  }
  if (!LITERAL_SAFE.test(value)) return { ok: false, reason: 'contains characters not allowed in a header value' };
  return { ok: true, value };
}

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Compares a decoded header value with the body value it mirrors: strings exactly, booleans as
 * `true`/`false`, integers numerically (so `42.0` equals `42`). Returns null when they agree, else a
 * short reason.
 */
export function compareHeaderWithBody(decoded: string, bodyValue: string | number | boolean): string | null {
  if (typeof bodyValue === 'string') return decoded === bodyValue ? null : 'differs from the body value';
  if (typeof bodyValue === 'boolean') return decoded === (bodyValue ? 'true' : 'false') ? null : 'differs from the body value';
  if (!Number.isSafeInteger(bodyValue)) return 'body value is not an integer within +/-(2^53-1)';
  if (!NUMERIC.test(decoded)) return 'is not a number';
  return Number(decoded) === bodyValue ? null : 'differs from the body value';
}

/** Reads the argument at `path`, or undefined when any step is missing or not an object. */
export function readArgumentAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = args;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Reads a header from any case-insensitive source. */
export type HeaderLookup = (lowerCaseName: string) => string | undefined;

/**
 * Checks every `Mcp-Param-*` header of a call against the arguments. Returns null when all
 * agree, else the message for a -32020 error.
 */
export function checkParamHeaders(annotations: readonly HeaderAnnotation[], args: Record<string, unknown>, header: HeaderLookup): string | null {
  for (const annotation of annotations) {
    const bodyValue = readArgumentAt(args, annotation.path);
    const raw = header(annotation.headerKey);
    if (bodyValue === undefined || bodyValue === null) continue;
    if (typeof bodyValue !== 'string' && typeof bodyValue !== 'number' && typeof bodyValue !== 'boolean') continue;
    if (raw === undefined) return `Header mismatch: ${annotation.headerName} is required because arguments.${annotation.path.join('.')} is present`;
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) return `Header mismatch: ${annotation.headerName} ${decoded.reason}`;
    const reason = compareHeaderWithBody(decoded.value, bodyValue);
    if (reason !== null) {
      return `Header mismatch: ${annotation.headerName} ${JSON.stringify(decoded.value)} ${reason} ${JSON.stringify(bodyValue)} at arguments.${annotation.path.join('.')}`;
    }
  }
  return null;
}

/**
 * The `Mcp-Param-*` headers a client must send for `args` (values null/absent are omitted).
 * Values whose type does not fit the annotation are skipped; the server's shape check reports them.
 */
export function buildParamHeaders(annotations: readonly HeaderAnnotation[], args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const annotation of annotations) {
    const value = readArgumentAt(args, annotation.path);
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isSafeInteger(value))) {
      headers[annotation.headerName] = encodeHeaderValue(value);
    }
  }
  return headers;
}
