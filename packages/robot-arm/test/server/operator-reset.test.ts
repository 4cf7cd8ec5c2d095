import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog } from '../../server/audit-log.js';
import { REPO_ROOT, repoPath, TSX_LOADER } from '../../../../test/support/repo-paths.js';
import { robotAuthHeaders } from '../../../../test/support/robot-token.js';

describe('operator reset of a latched emergency stop (a signal to the process, never a tool)', () => {
  it('SIGUSR2 clears the latch (robot-sim controller, the default); until then motions are refused, the first motion after the cleared line is accepted', async () => {
    const audit = join(mkdtempSync(join(tmpdir(), 'robot-operator-')), 'audit.jsonl');
    const child = spawn(process.execPath, ['--import', TSX_LOADER, repoPath('packages/robot-arm/main.ts'), '--port', '0', '--approval', 'off', '--time-scale', '20', '--audit-log', audit], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    try {
      let stderr = '';
      const url = await new Promise<string>((done, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
          if (match !== null) done(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      let id = 1;
      const call = async (name: string, args: Record<string, unknown>): Promise<{ structuredContent?: Record<string, unknown>; isError?: boolean }> => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { ...robotAuthHeaders(), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
          body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
          signal: AbortSignal.timeout(30_000),
        });
        return ((await response.json()) as { result: { structuredContent?: Record<string, unknown>; isError?: boolean } }).result;
      };
      const target = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };
      assert.equal((await call('stop_arm', { mode: 'emergency' })).structuredContent?.emergency_stop_latched, true);
      assert.equal(((await call('move_arm_to_pose', target)).structuredContent?.refused as { code: string }).code, 'estop_latched');
      const cleared = new Promise<void>((done) => child.stderr.on('data', () => stderr.includes('emergency stop cleared by the operator') && done()));
      child.kill('SIGUSR2');
      await cleared;
      assert.equal((await call('move_arm_to_pose', target)).structuredContent?.status, 'completed');
      assert.ok(readAuditLog(audit).records.some((r) => r.type === 'operator_action' && r.action === 'clear_emergency_stop' && r.cleared === true));
    } finally {
      clearTimeout(killer);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
