/**
 * Serving a server with the flags of `toolwright serve` (`--http`, `--stdio`, `--console`, `--store`,
 * `--eras`, ...): shared by `toolwright serve` (a module's server) and `toolwright proxy` (a server
 * built from a proxy configuration), so both serve alike.
 */
import type { McpServer } from '../server/create-server.js';
import { resolveEras } from '../server/eras.js';
import type { ErasSetting } from '../server/eras.js';
import { PROTOCOL_VERSION } from '../protocol/versions.js';
import { createRedisStore } from '../server/store/redis-store.js';
import { guardRedisStore } from '../server/store/claim-counter-guard.js';
import type { GuardedRedisStore } from '../server/store/claim-counter-guard.js';
import { VolatileStoreError } from '../server/store/redis-persistence.js';
import { setProcessStore } from '../server/store/process-store.js';
import { STATE_SECRET_ENV } from '../server/approvals/request-state-seal.js';
import { isLoopbackHost } from '../transport/http-policy.js';
import type { StageEvent } from '../server/stages/stage-events.js';

/** The serving options, as `parseArgs` takes them. */
export const SERVING_OPTIONS = {
  http: { type: 'string' },
  host: { type: 'string' },
  'allow-unauthenticated': { type: 'boolean' },
  path: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'allow-host': { type: 'string', multiple: true },
  stdio: { type: 'boolean' },
  eras: { type: 'string' },
  store: { type: 'string' },
  'allow-volatile-store': { type: 'boolean' },
  'claim-counter-file': { type: 'string' },
  console: { type: 'boolean' },
  'console-token': { type: 'string' },
  operator: { type: 'string' },
} as const;

/** The serving options' lines of a command's help text. */
export const SERVING_HELP = `  --http <port>          Streamable HTTP on this port (0 picks a free one)
  --host <addr>          Address to bind (default 127.0.0.1). An address that is not loopback is
                         refused when the server has no authorize option (createServer's
                         jwtAuthorizer or staticTokenAuthorizer), unless --allow-unauthenticated
  --allow-unauthenticated
                         Serve a server without authorization on a non-loopback --host (only
                         on a network that is itself trusted: anyone reaching it calls every tool)
  --path <path>          Endpoint path (default /mcp)
  --allow-origin <url>   Accept browser requests from this Origin (repeatable)
  --allow-host <name>    Accept this Host header (repeatable; default loopback names on loopback)
  --console              Also serve the operator console at /console on the HTTP port: the
                         workbench, and the approvals tab where calls held for an operator
                         are approved or declined; prints its address with a per-start token
  --console-token <t>    Use this console token instead of a random one (16+ URL-safe characters)
  --operator <name>      With --console: who decides there, as approval records name them
                         (default: console operator)
  --stdio                Newline-delimited JSON-RPC on stdin/stdout (the default without --http)
  --eras <list>          Protocol eras served: both (default), modern (2026-07-28 only), legacy
                         (2025 initialize sessions only), or a list such as 2026-07-28,2025
  --store <url>          Shared store for approvals and rate limits: redis://[user:pass@]host:port
                         or rediss://... (TLS); default: this process's memory. For several
                         instances behind one load balancer, also give all of them the same
                         TOOLWRIGHT_STATE_SECRET (16+ bytes) in the environment.
                         Redis must keep every write (appendonly yes, maxmemory-policy
                         noeviction), else serve refuses to start: a Redis that forgets
                         would let an approval run twice
  --allow-volatile-store Serve on a Redis that does not keep every write (a warning)
  --claim-counter-file <path>
                         The file that counts this instance's claims outside Redis, to
                         detect a Redis that lost writes (default: a free slot under
                         the state folder, $TOOLWRIGHT_STATE_DIR/claim-counters/)`;

/** The parsed serving options. */
export interface ServingValues {
  http?: string; host?: string; 'allow-unauthenticated'?: boolean; path?: string; 'allow-origin'?: string[]; 'allow-host'?: string[];
  stdio?: boolean; eras?: string; store?: string; 'allow-volatile-store'?: boolean; 'claim-counter-file'?: string; console?: boolean; 'console-token'?: string; operator?: string;
}

/** The server to serve; `wrapped`: the command built it with the given `onStageEvent` (the console sees its stages). */
export interface LoadedServer {
  server: McpServer;
  wrapped: boolean;
  /** Called after the server is closed (e.g. a proxy's upstream connections). */
  close?: () => Promise<void>;
}

/** What the start-up line says about eras. */
function erasText(eras: ErasSetting | undefined, server: McpServer): string {
  const served = eras === undefined ? server.eras : resolveEras(eras);
  if (served.has('modern') && served.has('legacy')) return `${PROTOCOL_VERSION} and 2025 clients`;
  return served.has('modern') ? `${PROTOCOL_VERSION} only` : '2025 clients only';
}

/**
 * Checks the serving flags, opens the store and the console when asked, loads the server with
 * `load` (after the flags are known good), serves it until stdin closes (stdio) or a signal, and
 * exits the process after a clean shutdown. Resolves to an exit code when it stops early:
 * 2 for bad usage, `loadErrorCode(error)` when `load` throws, 1 when the port cannot be used.
 */
export async function serveWith(command: string, values: ServingValues, load: (onStageEvent?: (event: StageEvent) => void) => Promise<LoadedServer>, loadErrorCode: (error: unknown) => number): Promise<number> {
  let port: number | undefined;
  if (values.http !== undefined) {
    port = Number(values.http);
    if (!/^\d+$/.test(values.http) || port > 65535) {
      process.stderr.write(`toolwright ${command}: --http needs a port number 0-65535, got ${JSON.stringify(values.http)}\n`);
      return 2;
    }
  } else if (values.host !== undefined || values.path !== undefined || values['allow-unauthenticated'] === true) {
    process.stderr.write(`toolwright ${command}: --host, --path and --allow-unauthenticated only apply with --http <port>\n`);
    return 2;
  }
  const wantsConsole = values.console === true || values['console-token'] !== undefined;
  if (wantsConsole && port === undefined) {
    process.stderr.write(`toolwright ${command}: ${values.console === true ? '--console' : '--console-token'} needs --http <port> (the console shares the MCP listener)\n`);
    return 2;
  }
  // Naming an operator must not quietly open a console that approves calls.
  if (values.operator !== undefined && !wantsConsole) {
    process.stderr.write(`toolwright ${command}: --operator names who decides in the console; add --console\n`);
    return 2;
  }
  if (values.operator !== undefined && values.operator.trim() === '') {
    process.stderr.write(`toolwright ${command}: --operator needs a name (it is written into every approval record), got an empty one\n`);
    return 2;
  }
  const useStdio = values.stdio === true || port === undefined;
  let eras: ErasSetting | undefined;
  try {
    if (values.eras !== undefined) eras = [...resolveEras(values.eras)];
  } catch (error) {
    process.stderr.write(`toolwright ${command}: --${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }

  let store: GuardedRedisStore | undefined;
  if ((values['allow-volatile-store'] === true || values['claim-counter-file'] !== undefined) && (values.store === undefined || values.store === 'memory')) {
    process.stderr.write(`toolwright ${command}: ${values['allow-volatile-store'] === true ? '--allow-volatile-store' : '--claim-counter-file'} only applies with --store redis://...\n`);
    return 2;
  }
  if (values.store !== undefined && values.store !== 'memory') {
    try {
      const redis = createRedisStore({ url: values.store, onError: (error) => process.stderr.write(`toolwright: ${error.message}\n`) });
      try {
        store = guardRedisStore(redis, {
          allowVolatile: values['allow-volatile-store'] === true,
          ...(values['claim-counter-file'] !== undefined ? { counterFile: values['claim-counter-file'] } : {}),
        });
      } catch (error) {
        await redis.close();
        throw error;
      }
    } catch (error) {
      process.stderr.write(`toolwright ${command}: --store: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    // Not reachable yet is not fatal: calls that need the store are refused until it is (and is checked), the rest is served.
    await store.ready().then(
      () => process.stderr.write(`toolwright: store ${store!.label}\n`),
      (error: unknown) => process.stderr.write(`toolwright: warning: ${error instanceof Error ? error.message : String(error)}; serving anyway, calls that need the store are refused until it is back\n`),
    );
    try {
      await store.start();
    } catch (error) {
      await store.close();
      process.stderr.write(`toolwright ${command}: --store: ${error instanceof Error ? error.message : String(error)}\n`);
      return error instanceof VolatileStoreError ? 2 : 1;
    }
    if (process.env[STATE_SECRET_ENV] === undefined) process.stderr.write(`toolwright: warning: ${STATE_SECRET_ENV} is not set: approvals issued by this instance are not accepted by other instances\n`);
    setProcessStore(store);
  }

  // The console module loads only when asked for: plain serving does not pay for it.
  const consoleModule = wantsConsole ? await import('../console/index.js') : undefined;
  const fanout = consoleModule?.createStageEventFanout();
  let loaded: LoadedServer;
  try {
    loaded = await load(fanout?.onStageEvent);
  } catch (error) {
    process.stderr.write(`toolwright ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    await store?.close();
    return loadErrorCode(error);
  }
  const { server, wrapped } = loaded;

  // A server others can reach that asks nobody who they are serves every tool to anyone.
  const host = values.host ?? '127.0.0.1';
  if (port !== undefined && !server.authorizes && !isLoopbackHost(host) && values['allow-unauthenticated'] !== true) {
    process.stderr.write(`toolwright ${command}: refusing to serve ${server.name} on ${host} without authorization: its server has no authorize option, so anyone who can reach that address could call every tool. Export a server from createServer({ authorize }) (jwtAuthorizer for an OAuth issuer, staticTokenAuthorizer for one token), or add --allow-unauthenticated if the network itself is trusted\n`);
    await store?.close();
    await loaded.close?.();
    return 2;
  }

  let consoleMount: import('../console/index.js').ConsoleMount | undefined;
  if (consoleModule !== undefined) {
    try {
      // Stage events are seen only for tools this command wraps in a server; a module's own server has its own hook.
      consoleMount = consoleModule.createWorkbenchConsole(server, {
        ...(values['console-token'] !== undefined ? { token: values['console-token'] } : {}),
        ...(values.operator !== undefined ? { operator: values.operator.trim() } : {}),
        ...(wrapped && fanout !== undefined ? { subscribeStageEvents: (l: (event: StageEvent) => void) => fanout.subscribe(l) } : {}),
      });
      await consoleMount.ready();
    } catch (error) {
      process.stderr.write(`toolwright ${command}: --console: ${error instanceof Error ? error.message : String(error)}\n`);
      await loaded.close?.();
      return 2;
    }
  }

  const stopped: Promise<string>[] = [];
  if (port !== undefined) {
    try {
      const listener = await server.listen({
        ...(consoleMount !== undefined ? { mounts: [consoleMount] } : {}),
        port,
        ...(eras !== undefined ? { eras } : {}),
        host,
        ...(values.path !== undefined ? { path: values.path } : {}),
        ...(values['allow-origin'] !== undefined ? { allowedOrigins: values['allow-origin'] } : {}),
        ...(values['allow-host'] !== undefined ? { allowedHosts: values['allow-host'] } : {}),
      });
      // The URL ends its line: scripts read it from there.
      process.stderr.write(`toolwright: serving ${server.tools.length} tool(s) of ${server.name} at ${listener.url}\ntoolwright: answering ${erasText(eras, server)} over HTTP\n`);
      if (consoleMount !== undefined) process.stderr.write(`console: ${consoleMount.url(listener)}\n`);
      if (!server.authorizes && !isLoopbackHost(host)) process.stderr.write(`toolwright: WARNING: --allow-unauthenticated: anyone who can reach ${host} can call every tool\n`);
    } catch (error) {
      const inUse = (error as { code?: unknown }).code === 'EADDRINUSE' ? `; another process is listening there: pick another port with --http <port> (0 picks a free one)` : '';
      process.stderr.write(`toolwright ${command}: cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}${inUse}\n`);
      await loaded.close?.();
      return 1;
    }
  }
  if (useStdio) {
    const connection = server.stdio(eras !== undefined ? { eras } : {});
    process.stderr.write(`toolwright: serving ${server.tools.length} tool(s) of ${server.name} on stdio\ntoolwright: answering ${erasText(eras, server)} over stdio\n`);
    stopped.push(connection.closed.then(() => 'stdin closed'));
  }
  stopped.push(
    new Promise((done) => {
      const onSignal = (signal: NodeJS.Signals): void => done(signal);
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    }),
  );
  const reason = await Promise.race(stopped);
  process.stderr.write(`toolwright: stopping (${reason})\n`);
  consoleMount?.close();
  await server.close();
  await loaded.close?.();
  await store?.close();
  // Signal listeners and stdin keep the event loop alive; the server is closed, so leave now.
  process.exit(0);
}
