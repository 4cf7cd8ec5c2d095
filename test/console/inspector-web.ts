/**
 * The MCP Inspector's web UI (`@modelcontextprotocol/inspector`, pinned in test-deps/third-party) as a child
 * process, for browser tests that need a real MCP Apps host. Everything is bound to 127.0.0.1 and
 * kept off the user's files and the network:
 *
 * - `HOST=127.0.0.1`; `CLIENT_PORT` a free port picked here (the Inspector refuses 0: its origin
 *   allow-list and the sandbox CSP are derived from it), the MCP Apps sandbox and app-origin
 *   servers on OS-assigned ports (`0`);
 * - `MCP_AUTO_OPEN_ENABLED=false`: the launcher would otherwise open a desktop browser;
 * - `HOME` and `MCP_STORAGE_DIR` in a temporary directory, secrets in memory only, and a catalog
 *   (`--catalog`) written there with no servers: without one the Inspector seeds
 *   `~/.mcp-inspector/mcp.json` with npx servers. A writable catalog, not an ad-hoc
 *   `--server-url`, because the deep link adds its server through `POST /api/servers`, which an
 *   ad-hoc (read-only) session refuses with 403;
 * - a known API token (`MCP_INSPECTOR_API_TOKEN`), which is also the deep link's `autoConnect` gate;
 * - every inherited `MCP_*`, `INSPECTOR_*` and `DANGEROUSLY_*` variable removed, so a developer's
 *   shell cannot widen the bind, disable auth or move the storage.
 *
 * The launcher runs the web client in-process (no grandchild), so stopping the child by its PID
 * stops the Inspector.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { freePort } from '../support/local-services.js'; // the Inspector needs a fixed port; see the header
import { thirdPartyFile } from '../support/test-deps.js';

export const INSPECTOR_LAUNCHER = thirdPartyFile('@modelcontextprotocol/inspector', 'clients/launcher/build/index.js');

/** A running Inspector web UI. */
export interface InspectorWeb {
  /** The child's PID (the launcher, which runs the web server in-process). */
  readonly pid: number;
  /** `http://127.0.0.1:<port>`, the UI's origin. */
  readonly origin: string;
  /** The MCP Apps sandbox proxy the UI puts App iframes on (its own origin, as the spec requires). */
  readonly sandboxUrl: string;
  /** The API token (and deep-link `autoConnect` value). */
  readonly token: string;
  /**
   * The Inspector's documented deep link (docs/mcp-app-review.md of the Inspector): connects to
   * `serverUrl` over Streamable HTTP, switches to the Apps tab, selects `tool` and pre-fills its form
   * with `args`. Opening the App stays one explicit click on "Open App".
   */
  deepLink(serverUrl: string, tool: string, args?: Record<string, unknown>): string;
  /** What the child printed so far (for failure messages). */
  output(): string;
  /** SIGTERM (the Inspector's own shutdown), SIGKILL after 10 s; then removes the temporary directory. */
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/** The parent's environment without anything that configures the Inspector, plus the settings above. */
function inspectorEnv(dir: string, port: number, token: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(MCP_|INSPECTOR_|DANGEROUSLY_)/.test(key)) continue;
    if (['HOST', 'CLIENT_PORT', 'SERVER_PORT', 'ALLOWED_ORIGINS', 'KUBERNETES_SERVICE_HOST'].includes(key)) continue;
    env[key] = value;
  }
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    HOST: '127.0.0.1',
    CLIENT_PORT: String(port),
    MCP_SANDBOX_PORT: '0',
    MCP_APP_ORIGIN_PORT: '0',
    MCP_AUTO_OPEN_ENABLED: 'false',
    MCP_INSPECTOR_API_TOKEN: token,
    MCP_STORAGE_DIR: join(dir, 'storage'),
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    // The backend connects to the MCP server on loopback: never through a proxy the shell names.
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
}

/** base64url of the JSON arguments, the deep link's `appArgs` encoding. */
function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

interface Attempt {
  child: ChildProcess;
  output(): string;
  exited: Promise<void>;
  /** The banner's sandbox URL, or the reason the child ended before printing it. */
  ready: Promise<{ sandboxUrl: string } | { failed: string }>;
}

function launch(dir: string, catalog: string, port: number, token: string): Attempt {
  const child = spawn(process.execPath, [INSPECTOR_LAUNCHER, '--web', '--catalog', catalog], { cwd: dir, env: inspectorEnv(dir, port, token), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<{ sandboxUrl: string } | { failed: string }>((resolve) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      // The banner's last address line names the sandbox; the UI line comes before it.
      const sandboxUrl = /Sandbox \(MCP Apps\): (\S+)/.exec(output)?.[1];
      if (sandboxUrl !== undefined && output.includes(`http://127.0.0.1:${port}`)) resolve({ sandboxUrl });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => resolve({ failed: `the Inspector exited (${code ?? signal}) before its banner` }));
    child.once('error', (error) => resolve({ failed: `the Inspector could not start: ${error.message}` }));
  });
  return { child, output: () => output, exited, ready };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS)));
  if ((await Promise.race([exited, late])) === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

/**
 * Starts the Inspector's web UI and waits (bounded) for its banner. A port taken between picking
 * and binding ("PORT IS IN USE") is retried on another port, twice at most.
 */
export async function startInspectorWeb(): Promise<InspectorWeb> {
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-inspector-'));
  const catalog = join(dir, 'catalog.json');
  writeFileSync(catalog, '{ "mcpServers": {} }\n');
  const token = randomBytes(24).toString('hex');
  let lastFailure = '';
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const started = launch(dir, catalog, port, token);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<{ failed: string }>((resolve) => (timer = setTimeout(() => resolve({ failed: `no banner within ${STARTUP_TIMEOUT_MS / 1000} s` }), STARTUP_TIMEOUT_MS)));
      const outcome = await Promise.race([started.ready, timeout]);
      clearTimeout(timer);
      if ('sandboxUrl' in outcome) {
        const origin = `http://127.0.0.1:${port}`;
        return {
          pid: started.child.pid ?? -1,
          origin,
          sandboxUrl: outcome.sandboxUrl,
          token,
          deepLink(serverUrl, tool, args) {
            const query = new URLSearchParams({ serverUrl, transport: 'http', autoConnect: token, openApp: tool });
            if (args !== undefined) query.set('appArgs', base64url(args));
            return `${origin}/?${query}`;
          },
          output: started.output,
          async stop() {
            try {
              await stopChild(started.child, started.exited);
            } finally {
              rmSync(dir, { recursive: true, force: true });
            }
          },
        };
      }
      await stopChild(started.child, started.exited);
      lastFailure = `${outcome.failed}; output:\n${started.output()}`;
      if (!started.output().includes('PORT IS IN USE')) break;
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`MCP Inspector web UI did not start: ${lastFailure}`);
}

/**
 * Keeps the browser on this machine. The Inspector's index.html links Google Fonts
 * (fonts.googleapis.com): that stylesheet is answered here with an empty one (the UI falls back to
 * system fonts), every other non-loopback request is aborted. Returns the off-machine URLs the
 * pages asked for, so a test can assert that nothing else tried to leave.
 */
export async function confineToLoopback(context: BrowserContext): Promise<string[]> {
  const offMachine: string[] = [];
  await context.route(
    (url) => (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1',
    async (route) => {
      const url = new URL(route.request().url());
      offMachine.push(url.origin + url.pathname);
      if (url.hostname === 'fonts.googleapis.com') await route.fulfill({ status: 200, contentType: 'text/css', body: '' });
      else await route.abort('blockedbyclient');
    },
  );
  return offMachine;
}
