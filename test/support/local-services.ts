/**
 * Real redis-server and nginx processes for tests and benches, on loopback, each in its own temp
 * directory, stopped by PID. `missing()` names an absent binary so callers skip with that reason.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SEARCH = ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin', ...(process.env.PATH ?? '').split(':')];

/** Absolute path of `name` on this machine, or undefined. */
export function findBinary(name: string): string | undefined {
  for (const dir of SEARCH) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (spawnSync('test', ['-x', candidate]).status === 0) return candidate;
  }
  return undefined;
}

/** A skip reason when any of `names` is not installed, else undefined. */
export function missing(...names: string[]): string | undefined {
  const absent = names.filter((n) => findBinary(n) === undefined);
  return absent.length === 0 ? undefined : `${absent.join(' and ')} not installed (apt-get install -y redis-server nginx)`;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Waits until `child` prints `pattern` on stdout or stderr; rejects if it exits first or after `timeoutMs`. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match !== null) finish(undefined, match[0]);
    };
    const onExit = (code: number | null, signal: string | null): void => finish(new Error(`${what} exited (${code ?? signal}) before it was ready:\n${seen.slice(-2000)}`));
    const timer = setTimeout(() => finish(new Error(`${what} not ready within ${timeoutMs} ms:\n${seen.slice(-2000)}`)), timeoutMs);
    function finish(error: Error | undefined, line?: string): void {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error !== undefined) reject(error);
      else resolve(line as string);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Sends SIGKILL (default) to a child we started and waits for its exit. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, signal);
  await exited;
}

/** One redis-server child. */
export interface RedisProcess {
  readonly port: number;
  /** `redis://[:password@]127.0.0.1:port`. */
  readonly url: string;
  readonly pid: number;
  /** Its working folder (dump.rdb, appendonlydir/). */
  readonly dir: string;
  /** Kills it (SIGKILL, like a crash). */
  kill(): Promise<void>;
  /** Starts it again on the same port (after kill). */
  restart(): Promise<void>;
  /** Kills it and removes its directory. */
  stop(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 (it is its own CA), written into `dir`. */
export function selfSignedCertificate(dir: string): { certFile: string; keyFile: string; certPem: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { certFile, keyFile, certPem: readFileSync(certFile, 'utf8') };
}

/**
 * Starts redis-server on a free loopback port, without persistence (`appendonly: true`: with the AOF,
 * fsync every second, as a deployment that keeps approvals must run it), optionally with a password,
 * optionally TLS-only (`tls: true`: a self-signed certificate; the URL is then rediss://).
 */
export async function startRedis(options: { password?: string; tls?: boolean; appendonly?: boolean; extraArgs?: string[] } = {}): Promise<RedisProcess & { certPem?: string }> {
  const binary = findBinary('redis-server');
  if (binary === undefined) throw new Error('redis-server is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'tw-redis-'));
  const port = await freePort();
  const certificate = options.tls === true ? selfSignedCertificate(dir) : undefined;
  let child: ChildProcess;
  async function launch(): Promise<void> {
    const ports = certificate === undefined ? ['--port', String(port)] : ['--port', '0', '--tls-port', String(port), '--tls-cert-file', certificate.certFile, '--tls-key-file', certificate.keyFile, '--tls-ca-cert-file', certificate.certFile, '--tls-auth-clients', 'no'];
    const args = [...ports, '--bind', '127.0.0.1', '--save', '', '--appendonly', options.appendonly === true ? 'yes' : 'no', '--dir', dir, '--protected-mode', 'no'];
    if (options.password !== undefined) args.push('--requirepass', options.password);
    args.push(...(options.extraArgs ?? []));
    child = spawn(binary as string, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForOutput(child, /Ready to accept connections/, `redis-server on ${port}`);
  }
  await launch();
  const auth = options.password !== undefined ? `:${encodeURIComponent(options.password)}@` : '';
  return {
    port,
    url: `${certificate === undefined ? 'redis' : 'rediss'}://${auth}127.0.0.1:${port}`,
    ...(certificate !== undefined ? { certPem: certificate.certPem } : {}),
    get pid() {
      return child.pid as number;
    },
    dir,
    kill: () => stopChild(child),
    restart: launch,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One nginx master child. */
export interface NginxProcess {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  stop(): Promise<void>;
}

/** `nginx -t` of a config text; resolves to its exit status and output. */
export function nginxTest(configText: string): { status: number | null; output: string } {
  const binary = findBinary('nginx');
  if (binary === undefined) throw new Error('nginx is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'tw-nginx-t-'));
  try {
    writeFileSync(join(dir, 'nginx.conf'), configText);
    const result = spawnSync(binary, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs nginx in the foreground with `configText` (a whole nginx.conf: it must say `daemon off;`,
 * `pid`, and listen on `port`); ready when the port answers.
 */
export async function startNginx(configText: string, port: number): Promise<NginxProcess> {
  const binary = findBinary('nginx');
  if (binary === undefined) throw new Error('nginx is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'tw-nginx-'));
  writeFileSync(join(dir, 'nginx.conf'), configText);
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`nginx exited (${code}) at start; see ${dir}/error.log`))));
  exited.catch(() => undefined);
  // nginx prints nothing when it starts well: poll the port, bounded.
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/__toolwright_gateway_health`).then(() => true, () => false);
    if (up) break;
    if (i >= 100 || child.exitCode !== null) {
      await stopChild(child);
      throw new Error(`nginx did not answer on ${port}; see ${dir}/error.log`);
    }
    await Promise.race([new Promise((r) => setTimeout(r, 50)), exited]);
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dir,
    async stop() {
      await stopChild(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
