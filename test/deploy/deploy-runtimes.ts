/**
 * Starts examples/deploy/ under a real runtime from test-deps/deploy (issue 33 item 10): workerd
 * through Miniflare, Deno and Bun as child processes, each on 127.0.0.1 with a port the runtime
 * picks. Readiness is a real event (Miniflare's `ready`, the entry's `READY <url>` line), bounded
 * in time; a runtime that cannot start fails the test with its own words, never a skip.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { buildWorker } from '../../examples/deploy/build-worker.js';
import { REPO_ROOT } from '../support/repo-paths.js';
import { testDeps } from '../support/test-deps.js';

export type Runtime = 'workerd' | 'deno' | 'bun';

export interface RunningTarget {
  runtime: Runtime;
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The runtime binary's own `--version` line. */
  version: string;
  stop(): Promise<void>;
}

/**
 * Deno compiles the TypeScript entry on first start; Miniflare starts workerd and loads a 1.5 MB
 * bundle: about 9 s on an idle 2-core machine, 17 s under a load of 12, so the bound is generous.
 */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
/** The workerd version of test-deps/deploy's miniflare is its compatibility date's upper bound. */
export const COMPATIBILITY_DATE = '2026-07-30';

interface MiniflareOptions {
  modules: boolean;
  modulesRoot: string;
  scriptPath: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  bindings: Record<string, string>;
  host: string;
  port: number;
}
interface MiniflareModule {
  Miniflare: new (options: MiniflareOptions) => { ready: Promise<URL>; dispose(): Promise<void> };
}

function deps(): ReturnType<typeof testDeps> {
  return testDeps('deploy');
}

/**
 * The runtime's binary inside its per-platform npm package. The `deno` and `bun` packages' own
 * `bin` entries are placeholders that their install scripts replace, and test-deps installs with
 * `--ignore-scripts`; the platform packages carry the real executables, so no script is needed.
 */
export function runtimeBinary(runtime: Runtime): string {
  const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'arm64' : undefined;
  const platform = process.platform;
  const packages: Record<Runtime, string | undefined> = {
    workerd: arch === undefined ? undefined : `@cloudflare/workerd-${platform === 'win32' ? 'windows' : platform}-${arch === 'x64' ? '64' : 'arm64'}/bin/workerd`,
    deno: arch === undefined ? undefined : platform === 'linux' ? `@deno/linux-${arch}-glibc/deno` : `@deno/${platform}-${arch}/deno`,
    bun: arch === undefined ? undefined : `@oven/bun-${platform}-${arch === 'x64' ? 'x64' : 'aarch64'}/bin/bun`,
  };
  const relative = packages[runtime];
  const path = relative === undefined ? undefined : join(deps().dir, 'node_modules', relative);
  if (path === undefined || !existsSync(path)) {
    throw new Error(`test-deps/deploy has no ${runtime} binary for ${platform}-${process.arch} (looked for node_modules/${relative ?? '?'}): npm installs only the platform package that matches this machine, and there is none for it`);
  }
  return path;
}

export function runtimeVersion(runtime: Runtime): string {
  const result = spawnSync(runtimeBinary(runtime), ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (result.status !== 0) throw new Error(`${runtime} --version failed (${result.status ?? result.signal}): ${result.stderr}`);
  return result.stdout.trim().split('\n')[0] ?? '';
}

/** Bundles examples/deploy/worker.ts and serves it with Miniflare (workerd as Miniflare's child). */
export async function startWorkerd(outDir: string, secret: string | undefined): Promise<RunningTarget> {
  const version = runtimeVersion('workerd');
  const scriptPath = join(outDir, 'worker.js');
  if (!existsSync(scriptPath)) {
    const started = Date.now();
    await buildWorker(scriptPath);
    process.stdout.write(`# workerd: bundle built in ${Date.now() - started} ms\n`);
  }
  const { Miniflare } = await deps().import<MiniflareModule>('miniflare');
  const mf = new Miniflare({
    modules: true,
    // Module names are paths relative to this root; the default (the working directory) would need
    // "../" to reach a bundle in another temporary folder, which workerd refuses.
    modulesRoot: outDir,
    scriptPath,
    compatibilityDate: COMPATIBILITY_DATE,
    // node:crypto and friends are imported at module load (docs/deploy.md, "nodejs_compat").
    compatibilityFlags: ['nodejs_compat'],
    bindings: secret === undefined ? {} : { TOOLWRIGHT_STATE_SECRET: secret },
    host: '127.0.0.1',
    port: 0,
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Miniflare (workerd) was not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
  });
  try {
    const base = await Promise.race([mf.ready, timeout]);
    return { runtime: 'workerd', url: new URL('/mcp', base).href, version, stop: () => mf.dispose() };
  } catch (error) {
    await mf.dispose();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Starts a child that prints `READY <url>`; resolves once it did, rejects if it exits or takes too long. */
export function startChild(runtime: 'deno' | 'bun', secret: string | undefined): Promise<RunningTarget & { child: ChildProcess }> {
  const version = runtimeVersion(runtime);
  const binary = runtimeBinary(runtime);
  // Deno's compile cache stays inside the test workspace (not the user's ~/.cache), kept between runs.
  const denoDir = join(deps().dir, 'node_modules', '.deno-cache');
  mkdirSync(denoDir, { recursive: true });
  // The node_modules link of a worktree points elsewhere: Deno must be allowed to read where it points.
  const readable = [REPO_ROOT, realpathSync(join(REPO_ROOT, 'node_modules'))].join(',');
  const args = runtime === 'deno'
    ? ['run', '--sloppy-imports', '--allow-net=127.0.0.1', '--allow-env', `--allow-read=${readable}`, join(REPO_ROOT, 'examples/deploy/deno.ts')]
    : [join(REPO_ROOT, 'examples/deploy/bun.ts')];
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DENO_DIR: denoDir, NO_COLOR: '1', HOST: '127.0.0.1', PORT: '0' };
  if (secret !== undefined) env.TOOLWRIGHT_STATE_SECRET = secret;
  const child = spawn(binary, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  const stop = (): Promise<void> => stopChild(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${runtime} did not print READY within ${START_TIMEOUT_MS} ms; stderr: ${stderr.trim()}`));
    }, START_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const ready = /^READY (\S+)$/m.exec(stdout);
      if (ready?.[1] === undefined) return;
      clearTimeout(timer);
      resolve({ runtime, url: ready[1], version, stop, child });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${runtime} could not be started (${binary}): ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new ExitedEarly(runtime, code, signal, stderr));
    });
  });
}

/** A child that ended before it was ready: its exit and what it said. */
export class ExitedEarly extends Error {
  constructor(readonly runtime: string, readonly code: number | null, readonly signal: NodeJS.Signals | null, readonly stderr: string) {
    super(`${runtime} exited (${code ?? signal}) before it was ready; stderr: ${stderr.trim()}`);
  }
}

/** SIGTERM by pid, then SIGKILL if it has not exited within the bound. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
