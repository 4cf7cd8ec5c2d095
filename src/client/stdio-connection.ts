import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { isJsonObject, isJsonRpcId } from '../protocol/index.js';
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/index.js';
import { McpClientError } from './client-error.js';
import { errorForServerRequest } from './connection.js';
import type { Connection, ConnectionHandlers, ReceivedResponse, SendOptions } from './connection.js';
import { refusalResponse } from './refusals.js';

/** A stdio server to spawn. */
export interface StdioTarget {
  /** The program, or with `shell: true` a whole shell command line. */
  command: string;
  args?: readonly string[];
  /** Run `command` through the shell (default false). */
  shell?: boolean;
  cwd?: string;
  /** Environment of the child (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /**
   * The child's stderr (logs, R-90): `inherit` passes it through (default), `capture` keeps the
   * last 64 KiB readable as `client.stderr` and quotes it in exit errors, `ignore` drops it.
   */
  stderr?: 'inherit' | 'capture' | 'ignore';
  /** Longest stdout line accepted, in bytes (default 16 MiB); a longer one fails every pending request. */
  maxMessageBytes?: number;
  /** How the server is named in error messages (default: `stdio server "<command line>"`). */
  label?: string;
  /** How long `close()` waits for the child to exit after stdin closes before SIGTERM (default 2000 ms). */
  exitGraceMs?: number;
}

/** The stdio connection also exposes what the child wrote to stderr. */
export interface StdioConnection extends Connection {
  readonly kind: 'stdio';
  /** Captured stderr (only with `stderr: 'capture'`). */
  readonly stderr: string;
  /** Lines on stdout that were not JSON-RPC messages (a server bug; kept for diagnosis, at most 100). */
  readonly strayLines: readonly string[];
  /** Exit code or signal once the child has exited. */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
}

const STDERR_LIMIT = 64 * 1024;
/** Most server-to-client requests answered at once; more are refused so a flood cannot pile up work. */
const MAX_SERVER_REQUESTS = 32;

interface Pending {
  resolve: (response: ReceivedResponse) => void;
  reject: (error: unknown) => void;
  options: SendOptions;
  progressToken: unknown;
  method: string;
}

/**
 * Spawns the server and speaks newline-delimited JSON-RPC on its stdin/stdout. Many requests may
 * be in flight; notifications are routed to the request whose `progressToken` they carry.
 * Cancelling sends `notifications/cancelled` and settles the call at once.
 */
export function createStdioConnection(target: StdioTarget): StdioConnection {
  if (typeof target.command !== 'string' || target.command.trim() === '') throw new McpClientError('usage', 'stdio target needs a command');
  const stderrMode = target.stderr ?? 'inherit';
  const shell = target.shell ?? false;
  const child = spawn(target.command, [...(target.args ?? [])], {
    shell,
    // A shell may run the server as its own child; its own process group lets close() stop both.
    detached: shell && process.platform !== 'win32',
    cwd: target.cwd,
    env: target.env ?? process.env,
    stdio: ['pipe', 'pipe', stderrMode === 'capture' ? 'pipe' : stderrMode],
  });
  // Both pipes exist: stdin and stdout are always 'pipe' above.
  const stdin = child.stdin as NonNullable<typeof child.stdin>;
  const stdout = child.stdout as NonNullable<typeof child.stdout>;
  const pending = new Map<JsonRpcId, Pending>();
  const strayLines: string[] = [];
  let stderr = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let failure: McpClientError | undefined;
  let closing = false;
  let handlers: ConnectionHandlers = {};
  let serverRequests = 0;
  const label = target.label ?? `stdio server ${JSON.stringify([target.command, ...(target.args ?? [])].join(' '))}`;

  const stderrTail = (): string => (stderr.trim() === '' ? '' : `; stderr: ${stderr.trim().slice(-500)}`);
  /** Fails every pending request; `make` may tailor the error to the request's method. */
  const failAll = (error: McpClientError, make?: (method: string) => McpClientError): void => {
    failure ??= error;
    for (const [id, entry] of pending) {
      pending.delete(id);
      entry.reject(make === undefined ? error : make(entry.method));
    }
  };

  if (child.stderr !== null) {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_LIMIT);
    });
  }
  child.on('error', (error) => failAll(new McpClientError('transport', `${label} could not start: ${error.message}`, { cause: error })));
  // 'close' comes after the pipes are drained, so the message can quote all of stderr.
  child.on('close', (code, signal) => {
    exit = { code, signal };
    if (closing) return failAll(new McpClientError('closed', 'the client was closed'));
    const how = signal ?? `code ${code}`;
    failAll(
      new McpClientError('transport', `${label} exited (${how})${stderrTail()}`, { data: { code, signal } }),
      (method) => new McpClientError('transport', `${label} exited (${how}) before answering ${method}${stderrTail()}`, { method, data: { code, signal } }),
    );
  });
  stdin.on('error', () => {
    // EPIPE after the child died; the exit handler reports it.
  });

  let buffer = '';
  // Measured in UTF-16 units of the decoded text: close enough to bytes for a memory bound.
  const maxChars = target.maxMessageBytes ?? 16 * 1024 * 1024;
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > maxChars && buffer.indexOf('\n') < 0) {
      buffer = '';
      failAll(new McpClientError('protocol', `${label} wrote a line longer than ${maxChars} characters; stopping`));
      stop('SIGTERM');
      return;
    }
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') receive(line);
    }
  });

  function receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      if (strayLines.length < 100) strayLines.push(line);
      return;
    }
    if (!isJsonObject(message) || message.jsonrpc !== '2.0') {
      if (strayLines.length < 100) strayLines.push(line);
      return;
    }
    if (typeof message.method === 'string') {
      if ('id' in message) {
        // A legacy-era server asks the client something (roots, elicitation, sampling); 2026-07-28 servers never do.
        if (isJsonRpcId(message.id)) answer(message as unknown as JsonRpcRequest);
        return;
      }
      const notification = message as unknown as JsonRpcNotification;
      const token = isJsonObject(notification.params) ? notification.params.progressToken : undefined;
      for (const entry of pending.values()) {
        if (token !== undefined && entry.progressToken === token) {
          entry.options.onNotification(notification);
          return;
        }
      }
      handlers.onNotification?.(notification);
      return;
    }
    if (!('result' in message) && !('error' in message)) {
      if (strayLines.length < 100) strayLines.push(line);
      return;
    }
    const response = message as unknown as JsonRpcResponse;
    if (response.id === undefined || !isJsonRpcId(response.id)) {
      // An id-less error answers something unreadable we sent; it cannot be matched, so every caller learns of it.
      if ('error' in response) failAll(new McpClientError('rpc', `${label} answered an unreadable request: ${response.error.message}`, { code: response.error.code, data: response.error.data }));
      return;
    }
    const entry = pending.get(response.id);
    if (entry === undefined) return;
    pending.delete(response.id);
    entry.resolve({ message: response });
  }

  /**
   * stdio cannot say which call a server request belongs to: it goes to the one request in flight
   * that takes server requests, and to the client-level handler when there are none or several.
   */
  function answer(request: JsonRpcRequest): void {
    const owners = [...pending.values()].filter((entry) => entry.options.onRequest !== undefined);
    const handler = owners.length === 1 ? owners[0]?.options.onRequest : handlers.onRequest;
    const signal = owners.length === 1 ? (owners[0] as Pending).options.signal : new AbortController().signal;
    if (handler === undefined) {
      write(refusalResponse(request.id, 'notAnswered', `the client does not answer ${request.method}`));
      return;
    }
    if (serverRequests >= MAX_SERVER_REQUESTS) {
      write(refusalResponse(request.id, 'tooManyRequests', `the client is already answering ${MAX_SERVER_REQUESTS} requests`));
      return;
    }
    serverRequests++;
    handler(request, signal).then(
      (result) => write({ jsonrpc: '2.0', id: request.id, result }),
      (error: unknown) => write({ jsonrpc: '2.0', id: request.id, error: errorForServerRequest(error) }),
    ).finally(() => {
      serverRequests--;
    });
  }

  function write(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse): void {
    if (exit !== undefined || stdin.destroyed || stdin.writableEnded) return;
    stdin.write(`${JSON.stringify(message)}\n`);
  }

  function send(request: JsonRpcRequest, options: SendOptions): Promise<ReceivedResponse> {
    if (closing) return Promise.reject(new McpClientError('closed', 'the client is closed', { method: request.method }));
    if (failure !== undefined) return Promise.reject(failure);
    if (options.signal.aborted) return Promise.reject(options.signal.reason);
    return new Promise<ReceivedResponse>((resolve, reject) => {
      const meta = isJsonObject(request.params) && isJsonObject(request.params._meta) ? request.params._meta : undefined;
      const onAbort = (): void => {
        if (!pending.has(request.id)) return;
        pending.delete(request.id);
        const reason = options.signal.reason instanceof Error ? options.signal.reason.message : 'cancelled by the client';
        if (exit === undefined && !closing) write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: request.id, reason } });
        reject(options.signal.reason);
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      pending.set(request.id, {
        resolve: (response) => {
          options.signal.removeEventListener('abort', onAbort);
          resolve(response);
        },
        reject: (error) => {
          options.signal.removeEventListener('abort', onAbort);
          reject(error);
        },
        options,
        progressToken: meta?.progressToken,
        method: request.method,
      });
      write(request);
    });
  }

  /** Signals the server; a shell command's whole process group, so a server the shell started goes too. */
  function stop(signal: NodeJS.Signals): void {
    if (shell && process.platform !== 'win32' && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
        return;
      } catch {
        // The group is gone already; fall through to the child itself.
      }
    }
    child.kill(signal);
  }

  async function close(): Promise<void> {
    if (closing) return;
    closing = true;
    failAll(new McpClientError('closed', 'the client was closed'));
    // No pid: the process never started, so there is nothing to wait for.
    if (child.pid === undefined || exit !== undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // Closing stdin asks the server to exit; one that lingers is terminated, then killed.
    stdin.end();
    const grace = target.exitGraceMs ?? 2000;
    const term = setTimeout(() => stop('SIGTERM'), grace);
    const kill = setTimeout(() => stop('SIGKILL'), grace + 2000);
    await exited;
    clearTimeout(term);
    clearTimeout(kill);
  }

  return {
    kind: 'stdio',
    identity: `stdio:${JSON.stringify([target.command, ...(target.args ?? [])])}`,
    // A stdio server takes credentials from its own environment, so each process is its own context.
    authContext: randomUUID(),
    send,
    close,
    async notify(notification) {
      if (closing || failure !== undefined) return;
      write(notification);
    },
    setHandlers(next) {
      handlers = next;
    },
    // stdio has no headers and no session: the era is per process.
    setLegacySession() {},
    listen() {},
    get stderr() {
      return stderr;
    },
    get strayLines() {
      return strayLines;
    },
    get exit() {
      return exit;
    },
  };
}
