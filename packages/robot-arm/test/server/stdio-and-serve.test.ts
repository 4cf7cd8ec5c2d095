import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readAuditLog } from '../../server/audit-log.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const MAIN = join(ROOT, 'packages', 'robot-arm', 'main.ts');

interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

describe('stdio, as a desktop client runs it', () => {
  it('the official client lists the tools over stdio; a motion without elicitation is refused and audited', async () => {
    const audit = join(mkdtempSync(join(tmpdir(), 'robot-stdio-')), 'audit.jsonl');
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', MAIN, '--stdio', '--audit-log', audit, '--audit-key', join(audit, '..', '..', `${basename(dirname(audit))}-key`, 'audit.key'), '--audit-head', join(audit, '..', '..', `${basename(dirname(audit))}-key`, 'audit.head')], cwd: ROOT, stderr: 'pipe' });
    const client = new Client({ name: 'robot-stdio', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } } as ConstructorParameters<typeof Client>[1]);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 9);
      const status = (await client.callTool({ name: 'get_device_status', arguments: {} })) as ToolResult;
      assert.equal(status.structuredContent?.state, 'idle');
      const move = (await client.callTool({ name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } } })) as ToolResult;
      assert.equal(move.isError, true);
      assert.equal((move.structuredContent?.refused as { code: string }).code, 'approval_unavailable');
      const after = (await client.callTool({ name: 'get_device_status', arguments: {} })) as ToolResult;
      assert.deepEqual(after.structuredContent?.joints_deg, status.structuredContent?.joints_deg);
    } finally {
      await client.close();
    }
    const records = readAuditLog(audit).records;
    assert.ok(records.some((r) => r.type === 'tool_call' && r.tool === 'get_device_status' && r.transport === 'stdio'));
    assert.ok(records.some((r) => r.type === 'tool_call' && r.tool === 'move_arm_to_pose' && (r.approval as { decision: string } | null)?.decision === 'refused'));
  });
});

describe('toolwright serve packages/robot-arm/server.ts', () => {
  it('serves the same tools, configured from the environment', async () => {
    const audit = join(mkdtempSync(join(tmpdir(), 'robot-serve-')), 'audit.jsonl');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'serve', join(ROOT, 'packages', 'robot-arm', 'server.ts'), '--http', '0'], {
      cwd: ROOT,
      env: { ...process.env, ROBOT_READ_ONLY: '1', ROBOT_AUDIT_LOG: audit },
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
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      assert.match(stderr, /serving 5 tool\(s\) of toolwright-robot-arm/);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
        signal: AbortSignal.timeout(20_000),
      });
      const body = (await response.json()) as { result: { tools: Array<{ name: string }> } };
      assert.equal(body.result.tools.length, 5);
      assert.ok(!body.result.tools.some((t) => t.name === 'move_arm_to_pose'));
    } finally {
      clearTimeout(killer);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
