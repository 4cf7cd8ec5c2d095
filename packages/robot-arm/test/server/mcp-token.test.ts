/**
 * `npm start` guards /mcp with the bearer token of its token file. The real main.ts runs as a child
 * process on loopback, with human approval OFF, so the token is the only thing between a caller and
 * the arm: without it, or with a wrong one, a motion gets 401 with the Bearer challenge and the arm
 * does not move; a process of another Unix user (uid nobody) can neither read the token nor call a
 * tool. The file is 0600 and reused at the next start; --no-auth serves without it, with a loud
 * warning; a non-loopback --host without authorization is refused at start.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { robotToken } from '../../../../test/support/robot-token.js';
import { repoPath, TSX_LOADER } from '../../../../test/support/repo-paths.js';
import { defaultAuditHeadPath, defaultAuditKeyPath } from 'toolwright';
import { readAuditLog } from '../../server/audit-log.js';
import { robotTokenPath } from '../../server/mcp-access.js';

const MAIN = repoPath('packages/robot-arm/main.ts');
const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };

interface Served { child: ChildProcess; url: string; consoleUrl: string; banner: string; audit: string; env: NodeJS.ProcessEnv }

/** Starts main.ts over HTTP with a state folder of its own; resolves once the banner is printed. */
function startRobot(args: readonly string[], stateDir = mkdtempSync(join(tmpdir(), 'robot-token-state-'))): Promise<Served> {
  const audit = join(mkdtempSync(join(tmpdir(), 'robot-token-')), 'audit.jsonl');
  const env = { ...process.env, TOOLWRIGHT_STATE_DIR: stateDir };
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, '--port', '0', '--controller', 'inprocess', '--rate', '50', '--audit-log', audit, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  child.once('exit', () => clearTimeout(killer));
  return new Promise((done, fail) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(text)?.[1];
      const consoleUrl = /^console: (\S+)$/m.exec(text)?.[1];
      if (url !== undefined && consoleUrl !== undefined && /"mcpServers"[\s\S]*\n {4}}\n/.test(text)) done({ child, url, consoleUrl, banner: text, audit, env });
    });
    child.once('exit', (code) => fail(new Error(`main.ts exited (${code}) before its banner: ${text}`)));
  });
}

async function stop(served: Served | undefined): Promise<void> {
  if (served === undefined || served.child.exitCode !== null) return;
  const exited = new Promise((r) => served.child.once('exit', r));
  served.child.kill('SIGTERM');
  await exited;
}

function callTool(url: string, name: string, args: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    signal: AbortSignal.timeout(60_000),
  });
}

async function tcp(served: Served): Promise<unknown> {
  const response = await callTool(served.url, 'get_device_status', {}, { authorization: `Bearer ${robotToken(served.env)}` });
  assert.equal(response.status, 200);
  const body = (await response.json()) as { result: { structuredContent: { tcp: unknown } } };
  assert.notEqual(body.result.structuredContent.tcp, undefined);
  return body.result.structuredContent.tcp;
}

/** The records of the server's audit log, verified with its key and head (in the server's state folder). */
function auditRecords(served: Served): ReturnType<typeof readAuditLog>['records'] {
  return readAuditLog(served.audit, { key: defaultAuditKeyPath(served.env), head: defaultAuditHeadPath(served.audit, served.env) }).records;
}

function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { env, timeout: 90_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

describe('npm start: /mcp needs the token of the token file (approval off: the token is all that guards the arm)', () => {
  let served: Served | undefined;
  before(async () => {
    served = await startRobot(['--approval', 'off']);
  });
  after(() => stop(served));

  it('creates the token file 0600 in the state folder and says where it is', () => {
    const path = robotTokenPath(served!.env);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.match(readFileSync(path, 'utf8'), /^[A-Za-z0-9_-]{43}\n$/);
    assert.ok(served!.banner.includes(`  /mcp:       bearer token required; token file ${path} (0600, created now)\n`), served!.banner);
  });

  it('a motion without a token: 401 with the Bearer challenge, and the arm did not move', async () => {
    const before = await tcp(served!);
    const response = await callTool(served!.url, 'move_arm_to_pose', TARGET);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(((await response.json()) as { error: unknown }).error, { code: -31401, message: 'Unauthorized: a valid bearer token is required' });
    assert.deepEqual(await tcp(served!), before);
    assert.equal(auditRecords(served!).filter((r) => r.tool === 'move_arm_to_pose' || r.type === 'motion_start').length, 0);
  });

  it('a motion with a wrong token: 401 invalid_token, and the arm did not move', async () => {
    const before = await tcp(served!);
    const wrong = robotToken(served!.env).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const response = await callTool(served!.url, 'move_arm_to_pose', TARGET, { authorization: `Bearer ${wrong}` });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer error="invalid_token", error_description="the token is not the one this server accepts"');
    assert.deepEqual(await tcp(served!), before);
    assert.equal(auditRecords(served!).filter((r) => r.type === 'motion_start').length, 0);
  });

  it('toolwright call without the token cannot call a tool (exit 3, the 401 named)', async () => {
    const result = await run(['--import', TSX_LOADER, repoPath('src/cli/main.ts'), 'call', served!.url, 'get_device_status'], served!.env);
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stdout + result.stderr, /Error \(rpc -31401, HTTP 401\): tools\/list failed: Unauthorized: a valid bearer token is required/);
  });

  it('a process of another Unix user (nobody) can neither read the token file nor call a tool', { skip: process.getuid?.() !== 0 ? 'needs root to start a process as nobody' : false }, async () => {
    const script = `
      const fs = require('node:fs');
      let read = 'read';
      try { fs.readFileSync(process.argv[1], 'utf8'); } catch (error) { read = error.code; }
      fetch(process.argv[2], { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'move_arm_to_pose' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'move_arm_to_pose', arguments: ${JSON.stringify(TARGET)}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } } } }) })
        .then((r) => console.log(JSON.stringify({ read, status: r.status })), (e) => console.log(JSON.stringify({ read, error: String(e) })));`;
    const before = await tcp(served!);
    const output = await new Promise<string>((done, fail) => {
      execFile(process.execPath, ['-e', script, robotTokenPath(served!.env), served!.url], { uid: 65534, gid: 65534, cwd: '/', timeout: 60_000 }, (error, stdout, stderr) => (error === null ? done(stdout) : fail(new Error(`${error.message}: ${stderr}`))));
    });
    assert.deepEqual(JSON.parse(output), { read: 'EACCES', status: 401 });
    assert.deepEqual(await tcp(served!), before);
  });

  it('with the token, the same motion runs (the token is what was missing)', async () => {
    const before = await tcp(served!);
    const response = await callTool(served!.url, 'move_arm_to_pose', TARGET, { authorization: `Bearer ${robotToken(served!.env)}` });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: { isError?: boolean } };
    assert.notEqual(body.result.isError, true, JSON.stringify(body));
    assert.notDeepEqual(await tcp(served!), before);
  });

  it('the console keeps its own token: a workbench call runs with it, and is refused without it', async () => {
    const consoleUrl = new URL(served!.consoleUrl);
    const token = consoleUrl.searchParams.get('token')!;
    const api = new URL('/console/api/call', consoleUrl);
    const withToken = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-token': token }, body: JSON.stringify({ tool: 'get_device_status', arguments: {} }) });
    assert.equal(withToken.status, 200);
    const record = (await withToken.json()) as { response: { result?: { isError?: boolean; structuredContent?: { arm?: string } } } };
    assert.equal(record.response.result?.structuredContent?.arm, 'Universal Robots UR5e', JSON.stringify(record));
    assert.notEqual(record.response.result?.isError, true);
    const bearerOnly = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${robotToken(served!.env)}` }, body: JSON.stringify({ tool: 'get_device_status', arguments: {} }) });
    assert.equal(bearerOnly.status, 401, 'the /mcp token is not a console credential');
  });
});

describe('npm start: the token file across starts', () => {
  it('is reused at the next start, and replaced (banner says why) when others could read it', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'robot-token-state-'));
    const first = await startRobot([], stateDir);
    const token = robotToken(first.env);
    await stop(first);
    const second = await startRobot([], stateDir);
    try {
      assert.equal(robotToken(second.env), token);
      assert.ok(second.banner.includes('(0600, reused; delete the file to get a new one at the next start)'), second.banner);
    } finally {
      await stop(second);
    }
    chmodSync(robotTokenPath(first.env), 0o644);
    const third = await startRobot([], stateDir);
    try {
      assert.notEqual(robotToken(third.env), token);
      assert.equal(statSync(robotTokenPath(third.env)).mode & 0o777, 0o600);
      assert.ok(third.banner.includes('(0600, replaced: it could be read by others (mode 0644))'), third.banner);
      const old = await callTool(third.url, 'get_device_status', {}, { authorization: `Bearer ${token}` });
      assert.equal(old.status, 401);
    } finally {
      await stop(third);
    }
  });
});

describe('npm start --no-auth', () => {
  it('serves /mcp without a token, after a loud warning, and writes no token file', async () => {
    const served = await startRobot(['--no-auth']);
    try {
      assert.ok(served.banner.startsWith('!'.repeat(78)), served.banner);
      assert.match(served.banner, /!! --no-auth: \/mcp at 127\.0\.0\.1 asks NO caller who they are\./);
      assert.match(served.banner, /\/mcp: {7}NO AUTHORIZATION \(--no-auth\): every caller is trusted/);
      assert.doesNotMatch(served.banner, /--header/);
      const response = await callTool(served.url, 'get_device_status', {});
      assert.equal(response.status, 200);
      assert.throws(() => statSync(robotTokenPath(served.env)), { code: 'ENOENT' });
    } finally {
      await stop(served);
    }
  });
});

describe('npm start --issuer --resource: OAuth tokens instead of the token file', () => {
  it('serves the protected resource metadata, answers 401 pointing at it, and fails closed (503) when the issuer cannot be reached', async () => {
    // Port 9 (discard) on loopback: nothing listens, so the issuer's metadata cannot be read.
    const served = await startRobot(['--approval', 'off', '--issuer', 'http://127.0.0.1:9', '--resource', 'https://robot.example.test/mcp']);
    try {
      assert.ok(served.banner.includes('  /mcp:       OAuth bearer tokens from http://127.0.0.1:9 for https://robot.example.test/mcp'), served.banner);
      assert.match(served.banner, /toolwright call: .* get_device_status --oauth\n/);
      assert.throws(() => statSync(robotTokenPath(served.env)), { code: 'ENOENT' });
      const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', served.url));
      assert.equal(metadata.status, 200);
      const document = (await metadata.json()) as { resource: string; authorization_servers: string[]; scopes_supported: string[] };
      assert.deepEqual([document.resource, document.authorization_servers, document.scopes_supported], ['https://robot.example.test/mcp', ['http://127.0.0.1:9'], ['toolwright:approve']]);
      const bare = await callTool(served.url, 'move_arm_to_pose', TARGET);
      assert.equal(bare.status, 401);
      assert.equal(bare.headers.get('www-authenticate'), 'Bearer resource_metadata="https://robot.example.test/.well-known/oauth-protected-resource/mcp"');
      const jwt = await callTool(served.url, 'move_arm_to_pose', TARGET, { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' });
      assert.equal(jwt.status, 503);
      assert.equal(auditRecords(served).filter((r) => r.type === 'motion_start').length, 0);
    } finally {
      await stop(served);
    }
  });

  it('refuses --issuer without --resource, and an unusable resource, with exit 2', async () => {
    const start = (args: string[]) => run(['--import', TSX_LOADER, MAIN, '--port', '0', '--controller', 'inprocess', '--audit-log', join(mkdtempSync(join(tmpdir(), 'robot-token-')), 'audit.jsonl'), ...args]);
    const alone = await start(['--issuer', 'https://auth.example.test']);
    assert.equal(alone.code, 2);
    assert.ok(alone.stderr.startsWith("robot-arm: --issuer and --resource go together (the issuer whose tokens are accepted, and this server's URI, their audience)\n"), alone.stderr);
    const relative = await start(['--issuer', 'https://auth.example.test', '--resource', '/mcp']);
    assert.equal(relative.code, 2);
    assert.match(relative.stderr, /^robot-arm: --issuer\/--resource: /);
  });
});

describe('npm start: exposure and option refusals (exit 2 with the exact message, nothing served)', () => {
  const start = (args: string[]) => run(['--import', TSX_LOADER, MAIN, '--port', '0', '--controller', 'inprocess', '--audit-log', join(mkdtempSync(join(tmpdir(), 'robot-token-')), 'audit.jsonl'), ...args]);
  const refusal = (host: string) => `robot-arm: refusing to serve /mcp on ${host} without authorization: anyone who can reach that address could move the arm. Drop --no-auth (the default bearer token guards /mcp), or add --allow-unauthenticated if the network itself is trusted\n`;

  it('refuses --no-auth on a non-loopback --host', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const result = await start(['--no-auth', '--host', host]);
      assert.equal(result.code, 2);
      assert.ok(result.stderr.startsWith(refusal(host)), result.stderr);
    }
  });

  it('refuses --allow-unauthenticated without --no-auth, and either flag with --stdio', async () => {
    const alone = await start(['--allow-unauthenticated']);
    assert.equal(alone.code, 2);
    assert.ok(alone.stderr.startsWith('robot-arm: --allow-unauthenticated only applies with --no-auth (with the default bearer token, /mcp is authorized on any --host)\n'), alone.stderr);
    const stdio = await start(['--stdio', '--no-auth']);
    assert.equal(stdio.code, 2);
    assert.ok(stdio.stderr.startsWith('robot-arm: --no-auth applies to HTTP only (on --stdio the process that starts this one is the caller)\n'), stdio.stderr);
  });

  it('passes the check with the token (default) or with --no-auth --allow-unauthenticated: here the foreign address 192.0.2.1 then fails to bind (exit 1)', async () => {
    for (const args of [[], ['--no-auth', '--allow-unauthenticated']]) {
      const result = await start([...args, '--host', '192.0.2.1']);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /robot-arm: cannot listen on 192\.0\.2\.1:0: /);
    }
  });
});
