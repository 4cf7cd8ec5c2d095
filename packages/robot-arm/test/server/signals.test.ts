// SIGTERM to what `npm start` started (the npm process itself) stops the server gracefully: the
// running motion is brought to a controlled stop and its caller answered, in-flight calls drain,
// server_stop is audited, no node process (server or its robot-sim controller) is left behind. A
// second signal exits at once, and robot-sim stops when its lifeline to the server ends.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readAuditLog } from '../../server/audit-log.js';
import { robotAuthHeaders } from '../../../../test/support/robot-token.js';
import { until as untilHolds } from '../../../../test/support/until.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function npmStart(auditLog: string) {
  const child = spawn('npm', ['start', '--silent', '--', '--approval', 'off', '--port', '0', '--rate', '20', '--audit-log', auditLog], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((done) => child.once('exit', (code, signal) => done([code, signal])));
  const url = new Promise<string>((done, fail) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match !== null && stderr.includes('mcpServers')) done(match[1]!);
    });
    void exited.then(([code]) => fail(new Error(`npm start exited ${code}: ${stderr}`)));
  });
  url.catch(() => undefined);
  return { child, url, exited, stderr: () => stderr };
}

function callTool(url: string, id: number, name: string, args: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...robotAuthHeaders(), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } }),
    signal: AbortSignal.timeout(60_000),
  });
}

/** A signal's effect shows in another process's audit log: polled, bounded at 60 s (a busy machine). */
const until = (check: () => boolean, what: string): Promise<void> => untilHolds(check, what, { timeoutMs: 60_000, intervalMs: 20 });

const serverPid = (path: string): number => readAuditLog(path).records.find((r) => r.type === 'server_start')!.pid as number;
/** The robot-sim controller the server started (npm start's default), as its start record names it. */
const controllerPid = (path: string): number => {
  const driver = String(readAuditLog(path).records.find((r) => r.type === 'server_start')!.driver);
  const match = /^robot-sim controller process \(pid (\d+)\)/.exec(driver);
  assert.ok(match !== null, `the server did not start a robot-sim controller: ${driver}`);
  return Number(match[1]);
};
const isRunning = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe('signals to npm start', () => {
  it('SIGTERM to the npm process: the motion stops under control and is answered, server_stop is written, nothing is left running', { timeout: 120_000 }, async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'robot-signals-')), 'audit.jsonl');
    const npm = npmStart(path);
    const killer = setTimeout(() => npm.child.kill('SIGKILL'), 100_000);
    let pid = 0;
    let simPid = 0;
    try {
      const url = await npm.url;
      pid = serverPid(path);
      simPid = controllerPid(path);
      const motion = callTool(url, 7, 'move_arm_to_pose', { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 });
      await until(() => readAuditLog(path).records.some((r) => r.type === 'motion_start' && r.request_id === 7), 'the motion start (motion_start in the audit log)');
      npm.child.kill('SIGTERM');
      const response = await motion;
      assert.equal(response.status, 200);
      const body = await response.json() as { id: number; result: { isError?: boolean; content: Array<{ text: string }>; structuredContent: { status: string; detail?: string } } };
      assert.equal(body.id, 7);
      assert.equal(body.result.isError, true);
      assert.equal(body.result.structuredContent.status, 'stopped', JSON.stringify(body));
      assert.equal(body.result.structuredContent.detail, 'server shutting down');
      assert.match(body.result.content[0]!.text, /^Motion motion-\S+ did not complete: stopped \(server shutting down\)\. TCP stopped at /);
      assert.deepEqual(await npm.exited, [0, null]);
      assert.match(npm.stderr(), /robot-arm: stopping \(SIGTERM\)/);
      const log = readAuditLog(path);
      assert.equal(log.records.at(-1)!.type, 'server_stop');
      assert.equal(log.records.at(-1)!.forced, undefined);
      assert.ok(log.records.some((r) => r.type === 'tool_call' && r.request_id === 7), 'the stopped motion has its outcome record');
      assert.deepEqual(log.chainBreaks, []);
      assert.equal(isRunning(pid), false, `server process ${pid} still running`);
      assert.equal(isRunning(simPid), false, `robot-sim controller ${simPid} still running after the server exited`);
    } finally {
      clearTimeout(killer);
      if (pid !== 0 && isRunning(pid)) process.kill(pid, 'SIGKILL');
      if (simPid !== 0 && isRunning(simPid)) process.kill(simPid, 'SIGKILL');
    }
  });

  it('a second signal exits at once even while a call is still in flight, and says so in the audit log', { timeout: 120_000 }, async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'robot-signals-')), 'audit.jsonl');
    const npm = npmStart(path);
    const killer = setTimeout(() => npm.child.kill('SIGKILL'), 100_000);
    let pid = 0;
    let simPid = 0;
    const socket = connect(Number(new URL(await npm.url).port), '127.0.0.1');
    // The server exits with this request unfinished, so the socket ends in a reset: expected, not a failure.
    socket.on('error', () => {});
    try {
      pid = serverPid(path);
      simPid = controllerPid(path);
      // A request whose body never finishes: in flight until the drain deadline. `Expect:
      // 100-continue` makes the server's arrival observable: node:http writes `100 Continue` in the
      // same turn it emits 'request' (where the shutdown counts in-flight calls), so once the line
      // arrives here the server has counted the call; a SIGTERM before that found none (CI, stop 38).
      await new Promise<void>((done) => socket.once('connect', () => done()));
      const continued = new Promise<void>((done) => {
        let seen = '';
        const onData = (chunk: Buffer): void => { seen += chunk.toString('latin1'); if (seen.includes('100 Continue')) { socket.off('data', onData); done(); } };
        socket.on('data', onData);
      });
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n');
      await continued;
      socket.write('{"jsonrpc"');
      const exited = new Promise((done) => { const timer = setInterval(() => { if (!isRunning(pid)) { clearInterval(timer); done(undefined); } }, 20); });
      npm.child.kill('SIGTERM');
      await until(() => npm.stderr().includes('in-flight call(s)'), 'the shutdown waiting for the in-flight call');
      process.kill(pid, 'SIGTERM');
      await exited;
      const log = readAuditLog(path);
      assert.deepEqual({ type: log.records.at(-1)!.type, forced: log.records.at(-1)!.forced, signal: log.records.at(-1)!.signal }, { type: 'server_stop', forced: true, signal: 'SIGTERM' });
      assert.deepEqual(log.chainBreaks, []);
      // No graceful close: robot-sim sees its lifeline (stdin from the server) end and stops by itself.
      await until(() => !isRunning(simPid), `the robot-sim controller ${simPid} exiting with the server`);
    } finally {
      socket.destroy();
      clearTimeout(killer);
      if (pid !== 0 && isRunning(pid)) process.kill(pid, 'SIGKILL');
      if (simPid !== 0 && isRunning(simPid)) process.kill(simPid, 'SIGKILL');
    }
  });
});
