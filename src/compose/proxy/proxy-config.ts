/**
 * The proxy configuration (`toolwright proxy --config proxy.json`, `createProxyServer(config)`):
 * its JSON Schema, checked by Toolwright's own schema engine, and the rules a schema cannot say
 * (one transport per upstream, distinct prefixes, environment variables that must be set). Every
 * problem is a JSON pointer into the configuration and a sentence.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { createOAuthClient, fileTokenStore } from '../../client/index.js';
import type { ClientCredentials, OAuthClient } from '../../client/index.js';
import type { JsonObject, JsonValue } from '../../protocol/json-rpc.js';
import { compileSchema } from '../../schema/index.js';
import type { ApprovalRequest } from '../../server/index.js';
import type { ToolFilter, ToolTransform } from '../transforms.js';
import { ProxyConfigError } from './proxy-error.js';
import type { ProxyConfigProblem } from './proxy-error.js';
import type { UpstreamTarget } from './upstream.js';
import type { UpstreamToolsOptions } from './tools-from-upstream.js';

/** A transform as written in the configuration: the `ToolTransform` objects of `toolwright/compose`, as JSON. */
export type ProxyConfigTransform =
  | { kind: 'rename'; tool: string; to: string }
  | { kind: 'describe'; tool: string; description?: string; title?: string }
  | { kind: 'hide-argument' | 'default-argument'; tool: string; argument: string; value: JsonValue }
  | { kind: 'narrow-argument'; tool: string; argument: string; schema: JsonObject }
  | { kind: 'filter'; keep: ToolFilter }
  | { kind: 'require-approval'; tool: string; message: string; approver?: ApprovalRequest['approver']; timeoutMs?: number };

/** The limits of an upstream, as `toolsFromUpstream` takes them (each documented there). */
type UpstreamLimits = Pick<UpstreamToolsOptions, 'era' | 'timeoutMs' | 'maxConcurrent' | 'maxQueued' | 'maxReconnects' | 'reconnectWindowMs' | 'maxMessageBytes' | 'maxTools' | 'maxDescriptorBytes'>;

/** One upstream in the configuration: exactly one of `stdio` and `http`, its limits, and transforms as JSON. */
export interface ProxyConfigUpstream extends UpstreamLimits {
  prefix: string;
  stdio?: { command: string; args?: string[]; env?: Record<string, string>; cwd?: string };
  /**
   * `bearerTokenEnv`: the environment variable holding the upstream's own bearer token (sent as
   * `Authorization: Bearer ...`); or `oauth`: the proxy gets its own tokens from the upstream's
   * authorization server (client credentials). At most one of the two, and no `authorization` header beside them.
   */
  http?: { url: string; headers?: Record<string, string>; bearerTokenEnv?: string; oauth?: ProxyConfigOAuth };
  transforms?: ProxyConfigTransform[];
}

/**
 * The proxy's own OAuth client for an HTTP upstream that asks for OAuth: the client credentials
 * grant (no user involved), the upstream's authorization server found from its metadata as any MCP
 * client finds it. Exactly one of `clientSecretEnv` and `privateKeyFile`.
 */
export interface ProxyConfigOAuth {
  /** The client registered for the proxy at the upstream's authorization server. */
  clientId: string;
  /** The environment variable holding the client secret (`client_secret_basic`). */
  clientSecretEnv?: string;
  /** A PEM private key (`private_key_jwt`), relative to the configuration's folder. */
  privateKeyFile?: string;
  /** The key's JWS algorithm (default ES256). */
  algorithm?: string;
  /** Scopes to ask for (default: what the upstream's challenge or metadata names). */
  scopes?: string[];
  /** A file to keep tokens in across restarts (0600; default: in memory), relative to the configuration's folder. */
  tokenCache?: string;
}

/** An OpenAPI document imported beside the upstreams (`toolsFromOpenApi`). */
export interface ProxyConfigOpenApi {
  /** Path of the JSON document (relative to the configuration's folder). */
  document: string;
  prefix?: string;
  baseUrl?: string;
  /** Bearer credentials by security scheme name: the environment variable holding each token. */
  bearerTokenEnv?: Record<string, string>;
  timeoutMs?: number;
  maxResponseBytes?: number;
  transforms?: ProxyConfigTransform[];
}

/** A Toolwright server in a module, mounted in process (`createServer({ mount })`) under `prefix`. */
export interface ProxyConfigMount {
  prefix: string;
  /** Path of a module (JS, or TypeScript under the CLI) whose default export is a server (`createServer(...)`), relative to the configuration's folder. */
  module: string;
  transforms?: ProxyConfigTransform[];
}

/** The whole configuration. */
export interface ProxyConfig {
  /** The front server's name and version (default `toolwright-proxy`, `0.0.0`). */
  name?: string;
  version?: string;
  upstreams?: ProxyConfigUpstream[];
  openapi?: ProxyConfigOpenApi[];
  mounts?: ProxyConfigMount[];
  /** A hash-chained audit log of every call (`auditLog`); `path` relative to the configuration's folder. */
  audit?: { path: string; includeArguments?: boolean; key?: string | false; head?: string };
  /** A server-wide rate limit (`rateLimit`). */
  rateLimit?: { capacity: number; refillPerSecond: number; per?: 'tool-and-subject' | 'tool' | 'subject' };
}

const positiveInteger = { type: 'integer', minimum: 1 } as const;
const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const prefix = { type: 'string', pattern: '^[A-Za-z0-9.-](?:[A-Za-z0-9_.-]{0,62}[A-Za-z0-9.-])?$', not: { pattern: '__' } } as const;
const name = { type: 'string', minLength: 1 } as const;

function kind(value: string, properties: JsonObject, required: string[]): JsonObject {
  return {
    if: { properties: { kind: { const: value } }, required: ['kind'] },
    then: { properties: { kind: true, ...properties }, required: ['kind', ...required], additionalProperties: false },
  };
}

const transform: JsonObject = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: ['rename', 'describe', 'hide-argument', 'default-argument', 'narrow-argument', 'filter', 'require-approval'] } },
  allOf: [
    kind('rename', { tool: name, to: name }, ['tool', 'to']),
    kind('describe', { tool: name, description: { type: 'string' }, title: { type: 'string' } }, ['tool']),
    kind('hide-argument', { tool: name, argument: name, value: true }, ['tool', 'argument', 'value']),
    kind('default-argument', { tool: name, argument: name, value: true }, ['tool', 'argument', 'value']),
    kind('narrow-argument', { tool: name, argument: name, schema: { type: 'object' } }, ['tool', 'argument', 'schema']),
    kind('filter', { keep: { type: 'object', additionalProperties: false, properties: { tags: { type: 'array', items: { type: 'string' } }, readOnlyHint: { type: 'boolean' }, destructiveHint: { type: 'boolean' } } } }, ['keep']),
    kind('require-approval', { tool: name, message: name, approver: { enum: ['elicitation', 'operator', 'either'] }, timeoutMs: positiveInteger }, ['tool', 'message']),
  ],
};

/** The configuration's JSON Schema (2020-12). */
export const PROXY_CONFIG_SCHEMA: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    name,
    version: name,
    upstreams: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['prefix'],
        properties: {
          prefix,
          stdio: { type: 'object', additionalProperties: false, required: ['command'], properties: { command: name, args: { type: 'array', items: { type: 'string' } }, env: stringMap, cwd: name } },
          http: {
            type: 'object',
            additionalProperties: false,
            required: ['url'],
            properties: {
              url: { type: 'string', pattern: '^https?://' },
              headers: stringMap,
              bearerTokenEnv: name,
              oauth: {
                type: 'object',
                additionalProperties: false,
                required: ['clientId'],
                properties: { clientId: name, clientSecretEnv: name, privateKeyFile: name, algorithm: name, scopes: { type: 'array', items: name }, tokenCache: name },
              },
            },
          },
          era: { enum: ['auto', 'modern', 'legacy'] },
          timeoutMs: positiveInteger,
          maxConcurrent: positiveInteger,
          maxQueued: { type: 'integer', minimum: 0 },
          maxReconnects: { type: 'integer', minimum: 0 },
          reconnectWindowMs: positiveInteger,
          maxMessageBytes: positiveInteger,
          maxTools: positiveInteger,
          maxDescriptorBytes: positiveInteger,
          transforms: { type: 'array', items: transform },
        },
      },
    },
    openapi: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['document'],
        properties: { document: name, prefix, baseUrl: { type: 'string', pattern: '^https?://' }, bearerTokenEnv: stringMap, timeoutMs: positiveInteger, maxResponseBytes: positiveInteger, transforms: { type: 'array', items: transform } },
      },
    },
    mounts: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['prefix', 'module'], properties: { prefix, module: name, transforms: { type: 'array', items: transform } } },
    },
    audit: { type: 'object', additionalProperties: false, required: ['path'], properties: { path: name, includeArguments: { type: 'boolean' }, key: { anyOf: [name, { const: false }] }, head: name } },
    rateLimit: { type: 'object', additionalProperties: false, required: ['capacity', 'refillPerSecond'], properties: { capacity: positiveInteger, refillPerSecond: { type: 'number', exclusiveMinimum: 0 }, per: { enum: ['tool-and-subject', 'tool', 'subject'] } } },
  },
};

/** What {@link resolveProxyConfig} makes of a configuration: the arguments of `toolsFromUpstream` and `toolsFromOpenApi`. */
export interface ResolvedProxyConfig {
  name: string;
  version: string;
  upstreams: { target: UpstreamTarget; options: UpstreamToolsOptions }[];
  openapi: { document: string; prefix: string | undefined; transforms: ToolTransform[]; options: { baseUrl?: string; credentials?: Record<string, { type: 'bearer'; token: string }>; timeoutMs?: number; maxResponseBytes?: number } }[];
  /** Modules to mount, their paths absolute. */
  mounts: { module: string; prefix: string; transforms: ToolTransform[] }[];
  audit: ProxyConfig['audit'];
  rateLimit: ProxyConfig['rateLimit'];
}

/** A transform of the configuration as a `ToolTransform`. */
function toTransform(t: ProxyConfigTransform): ToolTransform {
  if (t.kind === 'require-approval') {
    const { tool, kind: _kind, ...request } = t;
    return { kind: 'require-approval', tool, request };
  }
  return t as ToolTransform;
}

/** The pointer and sentence of one schema error (the engine's message starts with the pointer; it is not repeated). */
function problemOf(error: { instancePath: string; message: string }): ProxyConfigProblem {
  const prefix = `${error.instancePath || '/'}: `;
  return { pointer: error.instancePath, message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message };
}

/**
 * Checks a proxy configuration against {@link PROXY_CONFIG_SCHEMA} (with Toolwright's schema
 * engine) and its other rules, and resolves it: relative paths against `baseDir`, environment
 * variables from `env`.
 * @throws ProxyConfigError listing every problem as a JSON pointer and a sentence.
 */
export function resolveProxyConfig(config: unknown, baseDir: string = process.cwd(), env: Readonly<Record<string, string | undefined>> = process.env): ResolvedProxyConfig {
  const check = compileSchema(PROXY_CONFIG_SCHEMA).validate(config);
  if (!check.valid) throw new ProxyConfigError(check.errors.map(problemOf));
  const typed = config as ProxyConfig;
  const problems: ProxyConfigProblem[] = [];
  const prefixes = new Map<string, string>();
  const claim = (value: string | undefined, at: string): void => {
    if (value === undefined) return;
    const earlier = prefixes.get(value);
    if (earlier !== undefined) problems.push({ pointer: `${at}/prefix`, message: `prefix "${value}" is already used at ${earlier}` });
    else prefixes.set(value, at);
  };
  const upstreams: ResolvedProxyConfig['upstreams'] = [];
  for (const [index, entry] of (typed.upstreams ?? []).entries()) {
    const at = `/upstreams/${index}`;
    claim(entry.prefix, at);
    if ((entry.stdio === undefined) === (entry.http === undefined)) {
      problems.push({ pointer: at, message: `give exactly one of "stdio" and "http", got ${entry.stdio === undefined ? 'neither' : 'both'}` });
      continue;
    }
    let target: UpstreamTarget;
    if (entry.http !== undefined) {
      const headers = { ...entry.http.headers };
      const variable = entry.http.bearerTokenEnv;
      if (variable !== undefined) {
        const token = env[variable];
        if (token === undefined || token === '') problems.push({ pointer: `${at}/http/bearerTokenEnv`, message: `environment variable ${variable} is not set` });
        else headers.authorization = `Bearer ${token}`;
      }
      const oauth = entry.http.oauth === undefined ? undefined : oauthClientOf(entry.http, `${at}/http`, baseDir, env, problems);
      target = { url: entry.http.url, headers, ...(oauth !== undefined ? { oauth } : {}) };
    } else {
      const stdio = entry.stdio!;
      target = {
        command: stdio.command,
        ...(stdio.args !== undefined ? { args: stdio.args } : {}),
        ...(stdio.env !== undefined ? { env: { ...stringEnv(env), ...stdio.env } } : {}),
        cwd: stdio.cwd === undefined ? baseDir : resolve(baseDir, stdio.cwd),
      };
    }
    const { prefix: p, stdio: _s, http: _h, transforms, ...limits } = entry;
    upstreams.push({ target, options: { ...limits, prefix: p, label: p, ...(transforms !== undefined ? { transforms: transforms.map(toTransform) } : {}) } });
  }
  const openapi: ResolvedProxyConfig['openapi'] = [];
  for (const [index, entry] of (typed.openapi ?? []).entries()) {
    const at = `/openapi/${index}`;
    claim(entry.prefix, at);
    const credentials: Record<string, { type: 'bearer'; token: string }> = {};
    for (const [scheme, variable] of Object.entries(entry.bearerTokenEnv ?? {})) {
      const token = env[variable];
      if (token === undefined || token === '') problems.push({ pointer: `${at}/bearerTokenEnv/${scheme.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: `environment variable ${variable} is not set` });
      else credentials[scheme] = { type: 'bearer', token };
    }
    openapi.push({
      document: isAbsolute(entry.document) ? entry.document : resolve(baseDir, entry.document),
      prefix: entry.prefix,
      transforms: (entry.transforms ?? []).map(toTransform),
      options: {
        ...(entry.baseUrl !== undefined ? { baseUrl: entry.baseUrl } : {}),
        ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
        ...(entry.timeoutMs !== undefined ? { timeoutMs: entry.timeoutMs } : {}),
        ...(entry.maxResponseBytes !== undefined ? { maxResponseBytes: entry.maxResponseBytes } : {}),
      },
    });
  }
  const mounts: ResolvedProxyConfig['mounts'] = [];
  for (const [index, entry] of (typed.mounts ?? []).entries()) {
    claim(entry.prefix, `/mounts/${index}`);
    mounts.push({ module: isAbsolute(entry.module) ? entry.module : resolve(baseDir, entry.module), prefix: entry.prefix, transforms: (entry.transforms ?? []).map(toTransform) });
  }
  if (upstreams.length + openapi.length + mounts.length === 0 && problems.length === 0) problems.push({ pointer: '', message: 'nothing to serve: give at least one entry in "upstreams", "openapi" or "mounts"' });
  if (problems.length > 0) throw new ProxyConfigError(problems);
  const audit = typed.audit === undefined ? undefined : { ...typed.audit, path: resolve(baseDir, typed.audit.path) };
  return { name: typed.name ?? 'toolwright-proxy', version: typed.version ?? '0.0.0', upstreams, openapi, mounts, audit, rateLimit: typed.rateLimit };
}

/** The OAuth client of an HTTP upstream's `oauth`, or undefined with its problems pushed. */
function oauthClientOf(http: NonNullable<ProxyConfigUpstream['http']>, at: string, baseDir: string, env: Readonly<Record<string, string | undefined>>, problems: ProxyConfigProblem[]): OAuthClient | undefined {
  const oauth = http.oauth!;
  const before = problems.length;
  if (http.bearerTokenEnv !== undefined) problems.push({ pointer: `${at}/oauth`, message: 'give either "bearerTokenEnv" or "oauth", not both: the upstream gets one credential' });
  if (Object.keys(http.headers ?? {}).some((header) => header.toLowerCase() === 'authorization')) problems.push({ pointer: `${at}/oauth`, message: 'an "authorization" header and "oauth" cannot go together: the OAuth client sets the header' });
  if ((oauth.clientSecretEnv === undefined) === (oauth.privateKeyFile === undefined)) {
    problems.push({ pointer: `${at}/oauth`, message: `give exactly one of "clientSecretEnv" and "privateKeyFile", got ${oauth.clientSecretEnv === undefined ? 'neither' : 'both'}` });
    return undefined;
  }
  let credentials: ClientCredentials | undefined;
  if (oauth.clientSecretEnv !== undefined) {
    const secret = env[oauth.clientSecretEnv];
    if (secret === undefined || secret === '') problems.push({ pointer: `${at}/oauth/clientSecretEnv`, message: `environment variable ${oauth.clientSecretEnv} is not set` });
    else credentials = { clientId: oauth.clientId, clientSecret: secret };
  } else {
    const file = resolve(baseDir, oauth.privateKeyFile!);
    try {
      const privateKeyPem = readFileSync(file, 'utf8');
      if (!privateKeyPem.includes('PRIVATE KEY-----')) problems.push({ pointer: `${at}/oauth/privateKeyFile`, message: `${file} holds no PEM private key` });
      else credentials = { clientId: oauth.clientId, privateKeyPem, ...(oauth.algorithm !== undefined ? { algorithm: oauth.algorithm } : {}) };
    } catch (error) {
      problems.push({ pointer: `${at}/oauth/privateKeyFile`, message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    }
  }
  if (problems.length > before || credentials === undefined) return undefined;
  return createOAuthClient({
    clientCredentials: credentials,
    ...(oauth.scopes !== undefined ? { scopes: oauth.scopes } : {}),
    ...(oauth.tokenCache !== undefined ? { store: fileTokenStore(resolve(baseDir, oauth.tokenCache)) } : {}),
  });
}

function stringEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
