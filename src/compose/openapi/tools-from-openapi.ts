import { readFile } from 'node:fs/promises';
import { PROVIDER_NAMES } from '../../host/index.js';
import type { ProviderName } from '../../host/index.js';
import { lintTools } from '../../lint/index.js';
import type { LintOptions, LintResult } from '../../lint/index.js';
import { checkToolDefinition, defineTool } from '../../server/index.js';
import type { Tool } from '../../server/index.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import { isObjectSchema, toJsonSchema } from './convert-schema.js';
import type { LeftRef } from './convert-schema.js';
import { OpenApiImportError } from './import-error.js';
import type { ImportProblem } from './import-error.js';
import { foldOperationInput } from './operation-input.js';
import { credentialHeaderNames, resolveCredentials } from './security.js';
import { baseOperationName, strictestNameRule, toolNameFor } from './tool-names.js';
import { callUpstream } from './upstream-call.js';
import type { UpstreamCredential } from './upstream-call.js';

/** Options of {@link toolsFromOpenApi}. */
export interface OpenApiImportOptions {
  /** The upstream's base URL; default: the document's first `servers` entry (its variables at their defaults). */
  baseUrl?: string;
  /** Credentials by security scheme name (`components.securitySchemes`); never taken from the caller. */
  credentials?: Readonly<Record<string, UpstreamCredential>>;
  /** Timeout of one upstream exchange, in ms (default 30 000). */
  timeoutMs?: number;
  /** Largest upstream response body read, in bytes (default 5 MiB). */
  maxResponseBytes?: number;
  /** Provider profiles every tool name must fit (default: all of them). */
  providers?: readonly ProviderName[];
  /** Options for the linter run over the produced tools. */
  lint?: LintOptions;
  /** Longest time the parser may spend dereferencing, in ms (default 60 000). */
  parseTimeoutMs?: number;
}

/** One imported operation and the tool made for it. */
export interface ImportedOperation {
  tool: string;
  method: string;
  path: string;
  operationId: string | undefined;
}

/** What {@link toolsFromOpenApi} returns. */
export interface OpenApiImport {
  /** One tool per importable operation, in document order, made with `defineTool`. */
  tools: Tool[];
  operations: ImportedOperation[];
  /** Everything not carried over as it stood (skipped operations, unrepresented parts, notes). */
  problems: ImportProblem[];
  /** The linter's findings over the produced tools. */
  lint: LintResult;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  operationId?: string; summary?: string; description?: string; deprecated?: boolean;
  parameters?: Parameter[]; requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, unknown>[];
}
interface Parameter { name: string; in: string; required?: boolean }
interface Document {
  openapi?: unknown;
  servers?: { url: string; variables?: Record<string, { default?: string }> }[];
  paths?: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>;
  components?: { securitySchemes?: Record<string, { type?: string }> };
  security?: Record<string, unknown>[];
}

async function load(source: string | object, timeoutMs: number): Promise<Document> {
  let input: object;
  if (typeof source === 'string') {
    const text = await readFile(source, 'utf8').catch((error: Error) => { throw new OpenApiImportError('invalid_document', `cannot read ${source}: ${error.message}`); });
    try {
      input = JSON.parse(text) as object;
    } catch (error) {
      throw new OpenApiImportError('invalid_document', `${source} is not JSON: ${(error as Error).message}`);
    }
  } else {
    input = structuredClone(source); // The parser rewrites the document it is given.
  }
  const version = (input as Document).openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    throw new OpenApiImportError('invalid_document', `not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(version ?? null)})`);
  }
  try {
    // Loaded on first import, so that `toolwright/compose` (transforms) costs nothing until a document is read.
    const { dereference } = await import('@readme/openapi-parser');
    return await dereference(input as never, { dereference: { circular: 'ignore' }, resolve: { external: false }, timeoutMs }) as Document;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if ((error as { code?: string }).code === 'EMISSINGPOINTER' || /\$ref/.test(message)) throw new OpenApiImportError('invalid_ref', `invalid $ref: ${message}`);
    throw new OpenApiImportError('invalid_document', `the document cannot be parsed: ${message}`);
  }
}

function serverUrl(document: Document, baseUrl: string | undefined): string {
  if (baseUrl !== undefined) {
    if (!URL.canParse(baseUrl)) throw new OpenApiImportError('invalid_options', `baseUrl "${baseUrl}" is not an absolute URL`);
    return baseUrl;
  }
  const server = document.servers?.[0];
  let url = server?.url;
  for (const [name, variable] of Object.entries(server?.variables ?? {})) url = url?.split(`{${name}}`).join(variable.default ?? '');
  if (url === undefined || !URL.canParse(url)) {
    throw new OpenApiImportError('no_base_url', `the document has no absolute server URL (${url === undefined ? 'no servers' : `servers[0] is "${url}"`}); give options.baseUrl`);
  }
  return url;
}

function successResponse(operation: Operation): { description?: string; content?: Record<string, { schema?: unknown }> } | undefined {
  const codes = Object.keys(operation.responses ?? {}).filter((code) => /^2(\d\d|XX)$/i.test(code)).sort();
  return codes.length > 0 ? operation.responses![codes[0]!] : operation.responses?.default;
}

function refProblems(operation: string, leftRefs: readonly LeftRef[], problems: ImportProblem[]): boolean {
  for (const left of leftRefs) {
    const cyclic = left.ref.startsWith('#');
    problems.push({
      operation, code: cyclic ? 'ref-cycle' : 'ref-unresolved', severity: 'skipped',
      message: cyclic ? `schema at ${left.pointer || '/'} refers back to "${left.ref}" (a $ref cycle, which a tool schema cannot carry)` : `schema at ${left.pointer || '/'} has an external $ref "${left.ref}" (external references are not resolved)`,
    });
  }
  return leftRefs.length > 0;
}

/**
 * Turns an OpenAPI 3.0 or 3.1 document (an object, or the path of a JSON file) into Toolwright
 * tools, one per operation, each calling the upstream API with `fetch`. `$ref`s are resolved by
 * `@readme/openapi-parser` (external references are not fetched). Names, argument folding and
 * everything left out are described in docs/compose.md ("OpenAPI"). Throws
 * {@link OpenApiImportError} when the document as a whole cannot be imported (unreadable, not
 * OpenAPI 3.x, an invalid `$ref`, two operations with the same tool name, no base URL); problems of
 * single operations are returned in `problems`, and the produced tools are linted.
 */
export async function toolsFromOpenApi(source: string | object, options: OpenApiImportOptions = {}): Promise<OpenApiImport> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxResponseBytes = options.maxResponseBytes ?? 5 * 1024 * 1024;
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new OpenApiImportError('invalid_options', 'timeoutMs must be a positive integer');
  if (!(Number.isInteger(maxResponseBytes) && maxResponseBytes > 0)) throw new OpenApiImportError('invalid_options', 'maxResponseBytes must be a positive integer');
  const rule = strictestNameRule(options.providers ?? PROVIDER_NAMES);
  const document = await load(source, options.parseTimeoutMs ?? 60_000);
  const version = (document.openapi as string).startsWith('3.0') ? '3.0' : '3.1';
  const baseUrl = serverUrl(document, options.baseUrl);
  const schemes = (document.components?.securitySchemes ?? {}) as Record<string, { type?: string }>;
  const credentialHeaders = credentialHeaderNames(schemes);
  const tools: Tool[] = [];
  const operations: ImportedOperation[] = [];
  const problems: ImportProblem[] = [];
  const owners = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (operation === undefined) continue;
      const label = `${method.toUpperCase()} ${path}`;
      const name = toolNameFor(baseOperationName(method, path, operation.operationId), rule);
      const owner = `${label}${operation.operationId ? ` (operationId "${operation.operationId}")` : ''}`;
      const previous = owners.get(name);
      if (previous !== undefined) throw new OpenApiImportError('name_collision', `${previous} and ${owner} both become the tool name "${name}"; give them distinct operationIds`);
      owners.set(name, owner);
      if (!operation.operationId) problems.push({ operation: label, code: 'missing-operation-id', severity: 'info', message: `no operationId; the tool is named "${name}" from the method and path` });
      const merged = new Map<string, Parameter>();
      for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) merged.set(`${parameter.in}:${parameter.name}`, parameter);
      const leftRefs: LeftRef[] = [];
      const input = foldOperationInput(label, [...merged.values()] as never, operation.requestBody, version, credentialHeaders, problems, leftRefs);
      const success = successResponse(operation);
      const json = Object.entries(success?.content ?? {}).find(([type]) => /json/i.test(type));
      let outputSchema: JsonObject | undefined;
      if (json !== undefined) {
        const converted = toJsonSchema(json[1].schema ?? {}, version);
        leftRefs.push(...converted.leftRefs.map((left) => ({ ...left, pointer: `/responses${left.pointer}` })));
        if (isObjectSchema(converted.schema)) outputSchema = converted.schema;
        else if (converted.leftRefs.length === 0) problems.push({ operation: label, code: 'output-not-object', severity: 'info', message: 'the success response is not an object schema, so the tool has no outputSchema and returns the body as text' });
      }
      if (refProblems(label, leftRefs, problems) || input === undefined) continue;
      const credentials = resolveCredentials(label, operation.security ?? document.security, schemes, options.credentials ?? {}, problems);
      const description = [operation.summary, operation.description].filter((text) => typeof text === 'string' && text.length > 0).join('\n\n') || undefined;
      const definition = { name, inputSchema: input.inputSchema, ...(outputSchema ? { outputSchema } : {}), ...(description ? { description } : {}) };
      const invalid = checkToolDefinition({ ...definition } as never);
      if (invalid.length > 0) {
        problems.push({ operation: label, code: 'invalid-tool', severity: 'skipped', message: invalid.map((p) => p.message).join('; ') });
        continue;
      }
      const plan = { method, baseUrl, path, places: input.places, hasBody: input.hasBody, credentials, timeoutMs, maxResponseBytes, structured: outputSchema !== undefined };
      tools.push(defineTool({
        ...definition,
        ...(operation.deprecated === true ? { _meta: { 'toolwright/openapi': { deprecated: true } } } : {}),
        annotations: { readOnlyHint: method === 'get' || method === 'head', idempotentHint: ['get', 'head', 'put', 'delete', 'options'].includes(method), openWorldHint: true },
        run: (args, ctx) => callUpstream(plan, args as Record<string, unknown>, ctx.signal) as never,
      }));
      operations.push({ tool: name, method: method.toUpperCase(), path, operationId: operation.operationId });
    }
  }
  return { tools, operations, problems, lint: lintTools(tools.map((tool) => tool.descriptor), options.lint) };
}
