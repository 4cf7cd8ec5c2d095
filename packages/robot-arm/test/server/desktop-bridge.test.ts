/**
 * One arm, every client (issue 33 item 1): the desktop recipe `npm start` prints runs
 * `toolwright bridge` to the RUNNING server, with the bridge's own token, which holds no approver
 * scope. The robot server (main.ts) and the bridge are real child processes; the bridge is started
 * from the banner's JSON exactly as a desktop host starts it and driven by the official SDK v1
 * client over stdio (2025, initialize). A motion waits in the console's approval queue, the
 * operator approves it through the console's HTTP API (the approvals tab's own routes), it runs on
 * the arm the console shows, and the queue entry and the audit record name the bridge as the caller
 * and, beside it, the host behind it (its clientInfo, relayed by the bridge). A host that
 * declares elicitation still cannot approve its own motion: the bridge's token has no approver
 * scope, so nothing is asked of it and the operator decides.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BearerTokenError, defaultAuditHeadPath, defaultAuditKeyPath, type PendingApproval } from 'toolwright';
import { repoPath, TSX_LOADER } from '../../../../test/support/repo-paths.js';
import { until } from '../../../../test/support/until.js';
import { readAuditLog } from '../../server/audit-log.js';
import { APPROVER_SCOPE, BRIDGE_HOLDER, tokenAccess } from '../../server/mcp-access.js';

const MAIN = repoPath('packages/robot-arm/main.ts');
const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };

interface Robot { child: ChildProcess; banner: string; consoleUrl: URL; audit: string; env: NodeJS.ProcessEnv }
interface Entry { command: string; args: string[] }
interface CallResult { isError?: boolean; structuredContent?: { status?: string; refused?: { code: string } } }

/** main.ts over HTTP with a state folder of its own; resolves once the banner (ending with the desktop JSON) is printed. */
function startRobot(): Promise<Robot> {
  const audit = join(mkdtempSync(join(tmpdir(), 'robot-bridge-')), 'audit.jsonl');
  const env = { ...process.env, TOOLWRIGHT_STATE_DIR: mkdtempSync(join(tmpdir(), 'robot-bridge-state-')) };
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, '--port', '0', '--controller', 'inprocess', '--rate', '50', '--audit-log', audit], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  child.once('exit', () => clearTimeout(killer));
  return new Promise((done, fail) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const consoleUrl = /^console: (\S+)$/m.exec(text)?.[1];
      if (consoleUrl !== undefined && /"mcpServers"[\s\S]*\n {4}}\n/.test(text)) done({ child, banner: text, consoleUrl: new URL(consoleUrl), audit, env });
    });
    child.once('exit', (code) => fail(new Error(`main.ts exited (${code}) before its banner: ${text}`)));
  });
}

/** The desktop entry the banner prints (its last block). */
function desktopEntry(banner: string): Entry {
  const json = banner.slice(banner.indexOf('{', banner.indexOf('add to its MCP config:')));
  const entry = (JSON.parse(json) as { mcpServers: Record<string, Entry> }).mcpServers['robot-arm'];
  assert.ok(entry, banner);
  return entry;
}

describe('the desktop recipe: a stdio host drives the running arm through the bridge; its motions wait for the console', () => {
  let robot: Robot;
  let entry: Entry;
  const consoleApi = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(new URL(`/console/api${path}`, robot.consoleUrl), { ...init, headers: { 'content-type': 'application/json', 'x-console-token': robot.consoleUrl.searchParams.get('token') ?? '', ...init.headers } });
  const pending = async (): Promise<PendingApproval[]> => (await (await consoleApi('/approvals')).json()) as PendingApproval[];
  /** The first call waiting at the console, polled over its HTTP API (the queue's events are in the server's process). */
  const nextPending = async (): Promise<PendingApproval> => {
    let found: PendingApproval | undefined;
    let asking = false;
    await until(() => {
      if (!asking) {
        asking = true;
        pending().then((list) => ((found = list[0]), (asking = false)), () => (asking = false));
      }
      return found !== undefined;
    }, 'a call waiting in the console queue', { timeoutMs: 30_000, intervalMs: 50 });
    return found as PendingApproval;
  };
  const host = async (name: string, capabilities: Record<string, unknown>): Promise<Client> => {
    const client = new Client({ name, version: '1.0.0' }, { capabilities });
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, stderr: 'pipe' }));
    return client;
  };

  before(async () => {
    robot = await startRobot();
    entry = desktopEntry(robot.banner);
  });
  after(() => {
    robot.child.kill('SIGTERM');
  });

  it('the entry runs this CLI\'s bridge to the running server with the bridge token file, never a token', () => {
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(robot.banner)?.[1];
    assert.equal(entry.command, process.execPath);
    assert.deepEqual(entry.args, [repoPath('dist/cli/main.js'), 'bridge', url, '--token-file', join(robot.env.TOOLWRIGHT_STATE_DIR!, 'robot-arm-bridge.token')]);
  });

  it('tools/list shows the arm\'s tools; a motion waits in the console queue, the operator approves it there, it runs, and the audit names the bridge', async () => {
    const client = await host('desktop-host', {});
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 9);
      assert.ok(tools.some((t) => t.name === 'move_arm_to_pose'));
      const call = client.callTool({ name: 'move_arm_to_pose', arguments: TARGET }) as Promise<CallResult>;
      const held = await nextPending();
      assert.equal(held.tool, 'move_arm_to_pose');
      assert.equal(held.subject, 'desktop-bridge');
      assert.deepEqual(held.client, { name: 'desktop-host', version: '1.0.0' });
      const decided = await consoleApi('/approvals/decide', { method: 'POST', body: JSON.stringify({ id: held.id, approve: true, digest: held.digest }) });
      assert.equal(decided.status, 200, await decided.clone().text());
      const result = await call;
      assert.equal(result.isError, undefined, JSON.stringify(result));
      assert.equal(result.structuredContent?.status, 'completed');
    } finally {
      await client.close();
    }
    const records = readAuditLog(robot.audit, { key: defaultAuditKeyPath(robot.env), head: defaultAuditHeadPath(robot.audit, robot.env) }).records;
    const record = records.findLast((r) => r.type === 'tool_call' && r.tool === 'move_arm_to_pose');
    assert.ok(record, JSON.stringify(records));
    assert.deepEqual(record.caller, { subject: 'desktop-bridge', client_id: 'robot-arm-bridge-token', client_info: { name: 'desktop-host', version: '1.0.0' } });
    assert.equal(record.transport, 'http');
    assert.equal((record.approval as { approvedBy?: { kind?: string } } | null)?.approvedBy?.kind, 'operator');
    assert.equal(record.outcome, 'ok');
  });

  it('a host that declares elicitation cannot approve through the bridge: it is never asked, the call waits for the operator, who declines it, and nothing moves', async () => {
    const client = await host('eliciting-desktop-host', { elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { approve: true } } as never;
    });
    try {
      const call = client.callTool({ name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -400, y_mm: 100, z_mm: 400 } } }) as Promise<CallResult>;
      const held = await nextPending();
      // The same bridge token as the first host's; the entry tells the two hosts apart.
      assert.deepEqual({ subject: held.subject, client: held.client }, { subject: 'desktop-bridge', client: { name: 'eliciting-desktop-host', version: '1.0.0' } });
      const decided = await consoleApi('/approvals/decide', { method: 'POST', body: JSON.stringify({ id: held.id, approve: false }) });
      assert.equal(decided.status, 200);
      const result = await call;
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent?.refused?.code, 'approval_declined');
      assert.deepEqual(asked, [], 'the server asked the host nothing: its answer could not approve');
    } finally {
      await client.close();
    }
  });
});

describe('the bridge token file: a caller, not an approver', () => {
  it('the operator\'s token carries the approver scope, the bridge\'s none; any other token is refused', () => {
    const state = mkdtempSync(join(tmpdir(), 'robot-bridge-tokens-'));
    const access = tokenAccess(join(state, 'operator.token'), join(state, 'bridge.token'));
    assert.equal(access.kind, 'token');
    if (access.kind !== 'token') return;
    assert.notEqual(access.file.token, access.bridgeFile.token);
    const who = (bearerToken: string): unknown => access.authorize({ transport: 'http', bearerToken } as Parameters<typeof access.authorize>[0]);
    assert.deepEqual((who(access.file.token) as { scopes: string[] }).scopes, [APPROVER_SCOPE]);
    assert.deepEqual(who(access.bridgeFile.token), BRIDGE_HOLDER);
    assert.deepEqual(BRIDGE_HOLDER.scopes, []);
    assert.throws(() => who(`${access.bridgeFile.token}x`), (error: unknown) => error instanceof BearerTokenError && error.kind === 'invalid_token');
  });
});
