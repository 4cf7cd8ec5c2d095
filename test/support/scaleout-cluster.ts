/**
 * A scale-out deployment on loopback, all real processes: one redis-server, N `toolwright serve
 * --store redis://...` instances sharing TOOLWRIGHT_STATE_SECRET, and nginx configured by
 * `toolwright gateway nginx` (legacy sessions to the pool). Used by test/server/scaleout.test.ts and the scaleout bench.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startNginx, startRedis, stopChild, waitForOutput } from './local-services.js';
import type { NginxProcess, RedisProcess } from './local-services.js';
import { repoPath, TSX_LOADER } from './repo-paths.js';

/** The tool contracts nginx is configured from. */
export const SCALEOUT_TOOLS = repoPath('test', 'fixtures', 'servers', 'scaleout-tools.ts');
/** The server every instance runs: those tools plus notifications for legacy sessions. */
export const SCALEOUT_SERVER = repoPath('test', 'fixtures', 'servers', 'scaleout-server.ts');
const CLI = repoPath('src', 'cli', 'main.ts');

/** One `toolwright serve` instance. */
export interface Instance {
  readonly id: string;
  readonly port: number;
  /** Its own endpoint, bypassing nginx. */
  readonly url: string;
  readonly child: ChildProcess;
}

/** The running deployment. */
export interface Cluster {
  readonly redis: RedisProcess;
  readonly nginx: NginxProcess;
  /** The endpoint through nginx. */
  readonly url: string;
  readonly instances: Instance[];
  /** Every run of the device tool, one `instance target` line each, from all instances. */
  runs(): string[];
  /** SIGKILL of instance `index`. */
  kill(index: number): Promise<void>;
  /** Starts instance `index` again on its port. */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

/** What {@link startCluster} runs. */
export interface ClusterOptions {
  /** TOOLWRIGHT_STATE_SECRET of every instance. */
  secret?: string;
  /** The module each instance serves (default the scale-out server). */
  module?: string;
  /** The module nginx is configured from (default the scale-out tools). */
  gatewayTarget?: string;
}

/** Starts redis, `count` instances and nginx in front (the first instance owns the device). */
export async function startCluster(count: number, options: ClusterOptions = {}): Promise<Cluster> {
  const served = options.module ?? SCALEOUT_SERVER;
  const gatewayTarget = options.gatewayTarget ?? SCALEOUT_TOOLS;
  const dir = mkdtempSync(join(tmpdir(), 'tw-scaleout-'));
  const runLog = join(dir, 'runs.log');
  const secret = options.secret ?? 'scale-out-shared-secret-0123456789abcdef';
  // With the AOF: `serve --store` refuses a Redis that does not keep every write.
  const redis = await startRedis({ appendonly: true });
  const instances: Instance[] = [];
  // Every child as soon as it is spawned, so a failed start stops the ones that did start too.
  const spawned: ChildProcess[] = [];

  async function launch(id: string, port: number): Promise<Instance> {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI, 'serve', served, '--http', String(port), '--store', redis.url], {
      env: { ...process.env, TOOLWRIGHT_STATE_SECRET: secret, TOOLWRIGHT_INSTANCE_ID: id, SCALEOUT_RUN_LOG: runLog },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.push(child);
    await waitForOutput(child, /at http:\/\/\S+\n/, `instance ${id}`, 90_000);
    // Keep reading its output so a full pipe never blocks it.
    child.stdout?.resume();
    child.stderr?.resume();
    return { id, port, url: `http://127.0.0.1:${port}/mcp`, child };
  }

  try {
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    instances.push(...(await Promise.all(ports.map((port, i) => launch(`i${i + 1}`, port)))));
    const gatewayPort = await freePort();
    const generated = spawnSync(process.execPath, [
      '--import', TSX_LOADER, CLI, 'gateway', 'nginx', gatewayTarget,
      ...instances.flatMap((i) => ['--upstream', `127.0.0.1:${i.port}`]),
      '--owner', `127.0.0.1:${instances[0]!.port}`, '--listen', `127.0.0.1:${gatewayPort}`, '--foreground',
      // Legacy sessions live in Redis: any instance serves them (the legacy clients here call no device tool).
      '--legacy-to', 'pool',
    ], { encoding: 'utf8' });
    if (generated.status !== 0) throw new Error(`toolwright gateway nginx failed: ${generated.stderr}`);
    const nginx = await startNginx(generated.stdout, gatewayPort);
    return {
      redis,
      nginx,
      url: `${nginx.url}/mcp`,
      instances,
      runs: () => {
        try {
          return readFileSync(runLog, 'utf8').split('\n').filter((l) => l !== '');
        } catch {
          return [];
        }
      },
      kill: (index) => stopChild(instances[index]!.child),
      async restart(index) {
        const old = instances[index]!;
        instances[index] = await launch(old.id, old.port);
      },
      async stop() {
        await nginx.stop();
        for (const instance of instances) await stopChild(instance.child);
        await redis.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const child of spawned) await stopChild(child);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
