import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AuditLog, readAuditLog } from '../../server/audit-log.js';
import { untilFile } from '../../../../test/support/file-events.js';
import { robotAuthHeaders } from '../../../../test/support/robot-token.js';

const MAIN = resolve(import.meta.dirname, '..', '..', 'main.ts');
const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'robot-audit-')), 'audit.jsonl');
}

describe('audit log file', () => {
  it('appends numbered, keyed records (after chain_keyed) and continues the chain after reopening', () => {
    const path = tempFile();
    const first = new AuditLog(path);
    first.append({ type: 'a' });
    first.append({ type: 'b' });
    first.close();
    const second = new AuditLog(path);
    const stored = second.append({ type: 'c' });
    second.close();
    assert.equal(stored.seq, 4);
    const log = readAuditLog(path);
    assert.deepEqual(log.records.map((r) => [r.seq, r.type]), [[1, 'chain_keyed'], [2, 'a'], [3, 'b'], [4, 'c']]);
    assert.deepEqual([log.ok, log.keyed?.fromSeq, log.head], [true, 1, { seq: 4, pastHead: 0 }]);
    assert.deepEqual(log.chainBreaks, []);
    assert.equal(log.tornLines, 0);
    assert.throws(() => second.append({ type: 'd' }), /closed; refusing to run unaudited/);
  });

  it('a torn last line (crash mid-write) is skipped and the next record starts on its own line', () => {
    const path = tempFile();
    const log = new AuditLog(path);
    log.append({ type: 'a' });
    log.close();
    appendFileSync(path, '{"seq":3,"type":"tor');
    const reopened = new AuditLog(path);
    reopened.append({ type: 'b' });
    reopened.close();
    const contents = readAuditLog(path);
    assert.deepEqual(contents.records.map((r) => r.type), ['chain_keyed', 'a', 'b']);
    assert.equal(contents.tornLines, 1);
    assert.equal(contents.records[2]!.seq, 3);
    assert.deepEqual([contents.ok, contents.problems], [true, []], 'the torn line is a crash, not a break, for the head too');
  });

  it('removing or editing a line breaks the hash chain where it happened', () => {
    const path = tempFile();
    const log = new AuditLog(path);
    for (const type of ['a', 'b', 'c', 'd']) log.append({ type });
    log.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    writeFileSync(path, `${[lines[0], lines[1], lines[2], lines[4]].join('\n')}\n`);
    assert.deepEqual(readAuditLog(path).chainBreaks, [5]);
    writeFileSync(path, `${[lines[0], lines[1], lines[2]!.replace('"b"', '"x"'), lines[3], lines[4]].join('\n')}\n`);
    assert.deepEqual(readAuditLog(path).chainBreaks, [4]);
  });
});

describe('audit log durability: kill -9 right after answered calls loses none of them', () => {
  it('every answered call of a real server process is on disk after SIGKILL', async () => {
    const path = tempFile();
    // --rate 20: this test is about durability; at the default 2 motions/s a fast machine sends the
    // last motion inside the rate limit's window and it is refused (the limit has its own tests).
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--approval', 'off', '--audit-log', path, '--time-scale', '2', '--rate', '20'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    try {
      let stderr = '';
      const url = await new Promise<string>((resolveUrl, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
          if (match !== null && stderr.includes('mcpServers')) resolveUrl(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`server exited early with ${code}: ${stderr}`)));
      });
      // npm start's promise: it says how to connect.
      assert.match(stderr, /MCP Inspector/);
      assert.match(stderr, /toolwright call/);
      assert.match(stderr, /"mcpServers"/);
      assert.match(stderr, /WARNING: HUMAN APPROVAL IS OFF/);

      const answered: number[] = [];
      const call = async (id: number, name: string, args: Record<string, unknown>): Promise<void> => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { ...robotAuthHeaders(), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await response.json()) as { id: number };
        assert.equal(body.id, id);
        answered.push(id);
      };
      await call(101, 'get_device_status', {});
      await call(102, 'move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
      await call(103, 'move_arm_to_pose', { target_position: { x_mm: 0, y_mm: 0, z_mm: 300 } });
      await call(104, 'move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 }, confirmed: true });
      await call(105, 'read_ft_sensor', { filter: 'raw' });
      // A motion still running when the process dies is not answered; it must show up as started with an
      // unknown outcome, and it must not hide the calls answered meanwhile. (Time scale 2: this ~12 s
      // motion takes ~6 s of wall time, far longer than the kill takes even on a loaded machine.)
      void fetch(url, {
        method: 'POST',
        headers: { ...robotAuthHeaders(), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'move_arm_to_pose' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 106, method: 'tools/call', params: { name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      }).catch(() => undefined);
      await untilFile(path, () => readAuditLog(path).records.some((r) => r.type === 'motion_start' && r.request_id === 106) || undefined, 'motion 106 starting');
      await call(107, 'get_device_status', {});
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;

      const log = readAuditLog(path);
      for (const id of answered) {
        assert.ok(log.records.some((r) => r.request_id === id), `answered request ${id} is in the audit log`);
      }
      assert.deepEqual(log.chainBreaks, []);
      assert.ok(log.tornLines <= 1);
      const refused = log.records.find((r) => r.request_id === 104)!;
      assert.equal(refused.type, 'call_refused_by_server');
      assert.equal(refused.stage, 'shape');
      const envelope = log.records.find((r) => r.request_id === 103)!;
      assert.ok((envelope.stages as Array<{ stage: string; outcome: string }>).some((s) => s.stage === 'workspace_envelope' && s.outcome === 'refused'), JSON.stringify(envelope));
      assert.ok(!log.records.some((r) => r.type === 'server_stop'), 'the process really died without a clean shutdown');
      assert.ok(log.records.some((r) => r.type === 'motion_start' && r.request_id === 106));
      assert.ok(!log.records.some((r) => r.type === 'tool_call' && r.request_id === 106), 'the interrupted motion has no outcome record: its outcome is unknown');
      const status = log.records.find((r) => r.request_id === 107 && r.type === 'tool_call')!;
      assert.equal(status.outcome, 'ok');
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

describe('robot-arm command line', () => {
  it('refuses bad options with exit code 2 and a clear message', () => {
    for (const [args, pattern] of [
      [['--approval', 'maybe'], /^robot-arm: --approval must be one of always, large-moves, off, got "maybe"\n/],
      [['--preset', 'ur10'], /^robot-arm: --preset must be one of ur5e, xarm6, got "ur10"\n/],
      [['--port', 'abc'], /^robot-arm: port must be a number 0-65535, got "abc"\n/],
      [['--time-scale', '0'], /^robot-arm: --time-scale must be a number of simulated seconds per second in \(0, 1000\], got "0"\n/],
      [['--rate', '1e9'], /^robot-arm: --rate must be a number of motion commands per second in \(0, 100\], got "1e9"\n/],
    ] as const) {
      const result = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
      assert.equal(result.status, 2, args.join(' '));
      assert.match(result.stderr, pattern);
    }
  });
});
