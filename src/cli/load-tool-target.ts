/**
 * Loads the tool descriptors (wire form, exactly as `tools/list` shows them) that a CLI command
 * such as `lint` or `preview` works on, from any of the four target kinds:
 * a module, a saved `tools/list` JSON file, a running server by URL, or a stdio server command.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { McpClientError } from '../client/client-error.js';
import type { ConnectTarget, OAuthClient } from '../client/index.js';
import { importModule, ModuleImportError } from './import-module.js';
import { InputError } from '../errors/toolwright-error.js';
import { isJsonObject } from '../json/json-object.js';

/** Where the tools came from. */
export type ToolTargetSource =
  | { kind: 'file'; label: string; path: string; text: string; toolsPointer: '' | '/tools' | '/result/tools' }
  | { kind: 'module'; label: string; path: string }
  | { kind: 'url'; label: string; url: string }
  | { kind: 'stdio'; label: string; command: string };

/** The loaded catalog. `tools` are unvalidated wire descriptors: judging them is the caller's job. */
export interface LoadedToolTarget {
  tools: unknown[];
  source: ToolTargetSource;
}

/** Options for {@link loadToolTarget}. */
export interface LoadToolTargetOptions {
  /** Treat the target as a shell command to spawn as a stdio MCP server. */
  stdio?: boolean;
  /** Extra HTTP request headers for URL targets (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** Runs the OAuth flow for URL targets that ask for authorization (`--oauth`, `--client-credentials`). */
  oauth?: OAuthClient;
  /** Per-request timeout for URL and stdio targets, in milliseconds (default 15,000). */
  timeoutMs?: number;
  /** Most `tools/list` pages to follow before giving up (default 100). */
  maxPages?: number;
}

/** A target that cannot be read; the CLI prints the message and exits with code 2. */
export class ToolTargetError extends InputError {
  readonly errorCode = 'tool-target' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ToolTargetError';
  }
}

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** `{tools}`, a bare array, or a whole JSON-RPC response to `tools/list`. */
function toolsFromJson(data: unknown, label: string): { tools: unknown[]; pointer: '' | '/tools' | '/result/tools' } {
  if (Array.isArray(data)) return { tools: data, pointer: '' };
  if (typeof data === 'object' && data !== null) {
    const record = data as Record<string, unknown>;
    if (Array.isArray(record.tools)) return { tools: record.tools, pointer: '/tools' };
    const result = record.result as Record<string, unknown> | undefined;
    if (typeof result === 'object' && result !== null && Array.isArray(result.tools)) return { tools: result.tools, pointer: '/result/tools' };
  }
  throw new ToolTargetError(`${label}: expected a tools/list result ({"tools": [...]}), an array of tools, or a JSON-RPC response carrying one; got ${describe(data)}${isJsonObject(data) ? ` with keys ${Object.keys(data).slice(0, 5).join(', ') || '(none)'}` : ''}`);
}

async function loadJsonFile(path: string, label: string): Promise<LoadedToolTarget> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ToolTargetError(`cannot read ${label}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ToolTargetError(`${label} is not valid JSON: ${(error as Error).message}`);
  }
  const { tools, pointer } = toolsFromJson(data, label);
  return { tools, source: { kind: 'file', label, path, text, toolsPointer: pointer } };
}

function descriptorOf(value: unknown): unknown {
  // A tool from defineTool() carries its wire descriptor; a plain descriptor is used as it is.
  if (typeof value === 'object' && value !== null && 'descriptor' in value && 'handlers' in value) return (value as { descriptor: unknown }).descriptor;
  return value;
}

/**
 * What a module's default export offers: an array of tools (from defineTool or plain
 * descriptors), or a server from createServer() (`listToolDescriptors()`), or any object exposing
 * its tools as `tools`, `descriptors` or `listTools()`.
 */
async function toolsFromExport(exported: unknown, label: string): Promise<unknown[]> {
  if (Array.isArray(exported)) return exported.map(descriptorOf);
  if (typeof exported === 'object' && exported !== null) {
    const server = exported as Record<string, unknown>;
    if (typeof server.listToolDescriptors === 'function') {
      const listed: unknown = (server.listToolDescriptors as () => unknown)();
      if (Array.isArray(listed)) return listed.map(descriptorOf);
    }
    if (typeof server.listTools === 'function') {
      const listed: unknown = await (server.listTools as () => unknown)();
      if (Array.isArray(listed)) return listed.map(descriptorOf);
      if (typeof listed === 'object' && listed !== null && Array.isArray((listed as { tools?: unknown }).tools)) return (listed as { tools: unknown[] }).tools.map(descriptorOf);
    }
    for (const key of ['descriptors', 'tools'] as const) {
      const value = server[key];
      if (Array.isArray(value)) return value.map(descriptorOf);
      if (value instanceof Map) return [...value.values()].map(descriptorOf);
    }
  }
  throw new ToolTargetError(`${label}: the default export must be a server from createServer() or an array of tools from defineTool(); got ${describe(exported)}`);
}

async function loadModule(path: string, label: string): Promise<LoadedToolTarget> {
  let namespace: Record<string, unknown>;
  try {
    namespace = await importModule(path, label);
  } catch (error) {
    if (!(error instanceof ModuleImportError)) throw error;
    throw new ToolTargetError(error.kind === 'no-loader' ? error.message : `cannot load module ${label}: ${error.message}`);
  }
  if (!('default' in namespace)) throw new ToolTargetError(`${label} has no default export; export default the server (createServer(...)) or the tools array`);
  const tools = await toolsFromExport(namespace.default, label);
  return { tools, source: { kind: 'module', label, path } };
}

/**
 * Lists every tools/list page through `toolwright/client` and returns the entries exactly as
 * received (unfiltered: judging them, including invalid x-mcp-header annotations, is the caller's job).
 */
async function listThroughClient(target: ConnectTarget, label: string, options: LoadToolTargetOptions): Promise<unknown[]> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  // clientInfo is left out: the loader only reads the catalogue and has always sent the bare required _meta.
  // Roots, elicitation and sampling are declared because servers hide tools from clients without them
  // (server-everything does); the loader offers no roots and answers no other request.
  // The MCP client is loaded only for URL and stdio targets: a file target (the common case in CI) does not pay its start-up.
  const { connect } = await import('../client/mcp-client.js');
  const client = connect(target, {
    timeoutMs,
    maxPages: options.maxPages ?? 100,
    clientInfo: false,
    onWarning: () => {},
    capabilities: { roots: {}, elicitation: {}, sampling: {} },
    roots: [],
  });
  try {
    return (await client.listTools()).raw;
  } catch (error) {
    if (!(error instanceof McpClientError)) throw error;
    if (error.kind === 'rpc') {
      throw new ToolTargetError(`${label}: tools/list failed with JSON-RPC error ${String(error.code)}: ${error.serverMessage ?? error.message}${error.data !== undefined ? ` (${JSON.stringify(error.data)})` : ''}`);
    }
    if (error.kind === 'timeout') throw new ToolTargetError(`${label} did not answer tools/list within ${timeoutMs} ms`);
    if (error.kind === 'transport' && (error.message.startsWith('cannot reach ') || error.message.startsWith(label))) throw new ToolTargetError(error.message);
    throw new ToolTargetError(`${label}: ${error.message}`);
  } finally {
    await client.close();
  }
}

async function loadUrl(url: string, options: LoadToolTargetOptions): Promise<LoadedToolTarget> {
  const tools = await listThroughClient({ url, headers: options.headers ?? {}, ...(options.oauth !== undefined ? { oauth: options.oauth } : {}) }, url, options);
  return { tools, source: { kind: 'url', label: url, url } };
}

async function loadStdio(command: string, options: LoadToolTargetOptions): Promise<LoadedToolTarget> {
  const label = `stdio server "${command}"`;
  // A server that lingers after stdin closes is terminated after 1 s.
  const tools = await listThroughClient({ command, shell: true, stderr: 'capture', exitGraceMs: 1000, label }, label, options);
  return { tools, source: { kind: 'stdio', label, command } };
}

/**
 * Loads tools from a target:
 * - `--stdio` (`options.stdio`): the target is a shell command; newline-delimited JSON-RPC `tools/list`;
 * - `http://` / `https://`: POST `tools/list` over Streamable HTTP (2026-07-28 headers and `_meta`,
 *   or an `initialize` session for a 2025 server);
 * - a `.json` file: a saved `tools/list` result, an array of tools, or a JSON-RPC response;
 * - any other file: a module whose default export is a server or an array of tools.
 * Follows `nextCursor` pages. Throws {@link ToolTargetError} with a clear message otherwise.
 */
export async function loadToolTarget(target: string, options: LoadToolTargetOptions = {}): Promise<LoadedToolTarget> {
  if (target.trim() === '') throw new ToolTargetError('no target given');
  if (options.stdio) return loadStdio(target, options);
  if (/^https?:\/\//i.test(target)) {
    try { new URL(target); } catch { throw new ToolTargetError(`not a valid URL: ${target}`); }
    return loadUrl(target, options);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) throw new ToolTargetError(`unsupported URL scheme in ${target} (use http:// or https://, or --stdio "<command>")`);
  const path = resolve(target);
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new ToolTargetError(`no such file: ${target}`);
  if (!info.isFile()) throw new ToolTargetError(`${target} is not a file`);
  const extension = extname(path).toLowerCase();
  if (extension === '.json') return loadJsonFile(path, target);
  if (MODULE_EXTENSIONS.has(extension)) return loadModule(path, target);
  throw new ToolTargetError(`${target}: unknown target type "${extension || '(no extension)'}" (expected .json, a JS/TS module, an http(s) URL, or --stdio "<command>")`);
}
