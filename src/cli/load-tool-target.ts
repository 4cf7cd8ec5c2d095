/**
 * Loads the tool descriptors (wire form, exactly as `tools/list` shows them) that a CLI command
 * such as `lint` or `preview` works on, from any of the four target kinds:
 * a module, a saved `tools/list` JSON file, a running server by URL, or a stdio server command.
 */
import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { META, PROTOCOL_VERSION } from '../protocol/constants.js';

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
  /** Per-request timeout for URL and stdio targets, in milliseconds (default 15,000). */
  timeoutMs?: number;
  /** Most `tools/list` pages to follow before giving up (default 100). */
  maxPages?: number;
}

/** A target that cannot be read; the CLI prints the message and exits with code 2. */
export class ToolTargetError extends Error {
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
  throw new ToolTargetError(`${label}: expected a tools/list result ({"tools": [...]}), an array of tools, or a JSON-RPC response carrying one; got ${describe(data)}${typeof data === 'object' && data !== null && !Array.isArray(data) ? ` with keys ${Object.keys(data).slice(0, 5).join(', ') || '(none)'}` : ''}`);
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
  const extension = extname(path);
  if (['.ts', '.mts', '.cts'].includes(extension)) {
    // TypeScript targets need a loader; tsx is what the project itself runs on.
    try {
      const api = (await import('tsx/esm/api')) as { register: () => unknown };
      api.register();
    } catch {
      throw new ToolTargetError(`${label} is TypeScript but the tsx loader is not available; build it to JavaScript or install tsx`);
    }
  }
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolTargetError(`cannot load module ${label}: ${message}`);
  }
  if (!('default' in namespace)) throw new ToolTargetError(`${label} has no default export; export default the server (createServer(...)) or the tools array`);
  const tools = await toolsFromExport(namespace.default, label);
  return { tools, source: { kind: 'module', label, path } };
}

function listRequest(id: number, cursor: string | undefined): Record<string, unknown> {
  const params: Record<string, unknown> = { _meta: { [META.protocolVersion]: PROTOCOL_VERSION, [META.clientCapabilities]: {} } };
  if (cursor !== undefined) params.cursor = cursor;
  return { jsonrpc: '2.0', id, method: 'tools/list', params };
}

/** Reads one page of a `tools/list` response: the tools, and the cursor of the next page if any. */
function readPage(message: unknown, label: string): { tools: unknown[]; nextCursor: string | undefined } {
  if (typeof message !== 'object' || message === null) throw new ToolTargetError(`${label}: response is not a JSON-RPC message`);
  const record = message as Record<string, unknown>;
  if (record.error !== undefined) {
    const error = record.error as { code?: unknown; message?: unknown; data?: unknown };
    throw new ToolTargetError(`${label}: tools/list failed with JSON-RPC error ${String(error.code)}: ${String(error.message)}${error.data !== undefined ? ` (${JSON.stringify(error.data)})` : ''}`);
  }
  const result = record.result as Record<string, unknown> | undefined;
  if (typeof result !== 'object' || result === null || !Array.isArray(result.tools)) throw new ToolTargetError(`${label}: tools/list result has no "tools" array`);
  const next = result.nextCursor;
  if (next !== undefined && next !== null && typeof next !== 'string') throw new ToolTargetError(`${label}: nextCursor must be a string, got ${describe(next)}`);
  return { tools: result.tools, nextCursor: typeof next === 'string' ? next : undefined };
}

/** Follows `nextCursor` until the last page; a cursor seen twice or too many pages is an error, never a loop. */
async function listAllPages(fetchPage: (id: number, cursor: string | undefined) => Promise<unknown>, label: string, maxPages: number): Promise<unknown[]> {
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > maxPages) throw new ToolTargetError(`${label}: more than ${maxPages} pages of tools/list; stopping`);
    const { tools: pageTools, nextCursor } = readPage(await fetchPage(page, cursor), label);
    tools.push(...pageTools);
    if (nextCursor === undefined) return tools;
    if (seen.has(nextCursor)) throw new ToolTargetError(`${label}: server returned cursor ${JSON.stringify(nextCursor)} twice; stopping`);
    seen.add(nextCursor);
    cursor = nextCursor;
  }
}

/** The JSON-RPC response with `id` inside an SSE body (`data:` lines, events separated by blank lines). */
function responseFromSse(body: string, id: number): unknown {
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
    if (data === '') continue;
    try {
      const message = JSON.parse(data) as { id?: unknown };
      if (message.id === id) return message;
    } catch {
      // Not JSON: some other event; keep looking.
    }
  }
  return undefined;
}

async function loadUrl(url: string, options: LoadToolTargetOptions): Promise<LoadedToolTarget> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const fetchPage = async (id: number, cursor: string | undefined): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': PROTOCOL_VERSION,
          'mcp-method': 'tools/list',
          ...options.headers,
        },
        body: JSON.stringify(listRequest(id, cursor)),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : cause ?? (error as Error).message;
      throw new ToolTargetError(`cannot reach ${url}: ${reason}`);
    }
    const body = await response.text();
    const type = response.headers.get('content-type') ?? '';
    let message: unknown;
    if (type.includes('text/event-stream')) {
      message = responseFromSse(body, id);
    } else {
      try { message = JSON.parse(body); } catch { message = undefined; }
    }
    if (message === undefined || (!response.ok && (typeof message !== 'object' || message === null || !('error' in message)))) {
      throw new ToolTargetError(`${url}: tools/list answered HTTP ${response.status} without a JSON-RPC response${body ? `: ${body.slice(0, 200)}` : ''}`);
    }
    return message;
  };
  const tools = await listAllPages(fetchPage, url, options.maxPages ?? 100);
  return { tools, source: { kind: 'url', label: url, url } };
}

async function loadStdio(command: string, options: LoadToolTargetOptions): Promise<LoadedToolTarget> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const label = `stdio server "${command}"`;
  const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => { if (stderr.length < 4000) stderr += chunk; });
  const waiting = new Map<number, (message: unknown) => void>();
  let exited: string | undefined;
  let failExit: (reason: string) => void = () => {};
  const exitPromise = new Promise<never>((_, reject) => {
    failExit = (reason) => reject(new ToolTargetError(`${label} ${reason}${stderr.trim() ? `; stderr: ${stderr.trim().slice(0, 500)}` : ''}`));
  });
  exitPromise.catch(() => {});
  child.on('error', (error) => { exited = error.message; failExit(`could not start: ${error.message}`); });
  child.on('exit', (code, signal) => { exited = `exited (${signal ?? `code ${code}`})`; failExit(`${exited} before answering tools/list`); });
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line === '') continue;
      try {
        const message = JSON.parse(line) as { id?: unknown };
        if (typeof message.id === 'number') waiting.get(message.id)?.(message);
      } catch {
        // Servers must write only JSON-RPC to stdout; a stray line is ignored rather than fatal.
      }
    }
  });
  const fetchPage = (id: number, cursor: string | undefined): Promise<unknown> => {
    if (exited !== undefined) return Promise.reject(new ToolTargetError(`${label} ${exited}`));
    const answer = new Promise<unknown>((resolveAnswer, reject) => {
      const timer = setTimeout(() => reject(new ToolTargetError(`${label} did not answer tools/list within ${timeoutMs} ms`)), timeoutMs);
      waiting.set(id, (message) => { clearTimeout(timer); waiting.delete(id); resolveAnswer(message); });
    });
    child.stdin.write(`${JSON.stringify(listRequest(id, cursor))}\n`);
    return Promise.race([answer, exitPromise]);
  };
  try {
    const tools = await listAllPages(fetchPage, label, options.maxPages ?? 100);
    return { tools, source: { kind: 'stdio', label, command } };
  } finally {
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) {
      // Closing stdin asks the server to exit (R-94); a server that lingers is stopped.
      const timer = setTimeout(() => child.kill('SIGKILL'), 1000);
      child.once('exit', () => clearTimeout(timer));
      child.kill('SIGTERM');
    }
  }
}

/**
 * Loads tools from a target:
 * - `--stdio` (`options.stdio`): the target is a shell command; newline-delimited JSON-RPC `tools/list`;
 * - `http://` / `https://`: POST `tools/list` over Streamable HTTP (2026-07-28 headers and `_meta`);
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
