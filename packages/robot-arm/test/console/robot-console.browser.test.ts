/**
 * The operator console of the REAL robot server (packages/robot-arm/main.ts as a child process, real
 * time) in real headless Chromium: clients that cannot elicit (`toolwright call` as a child process,
 * and the project's MCP client) ask motions; the console shows each with its planned path; approve →
 * the client's call completes and the arm moved; decline → refused, nothing moved; the e-stop during
 * a slow motion stops it and latches; no action without the token; no page errors.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { approveShown, armMovingAndLatched, getConsoleApi, postConsoleApi, resetEstopThroughConfirmation, resultText as text, tcpOf, waitForArm } from '../../../../test/console/arm-console-page.js';
import { openConsoleSession } from '../../../../test/console/browser-session.js';
import type { ConsoleSession } from '../../../../test/console/browser-session.js';
import { repoPath, TSX_LOADER } from '../../../../test/support/repo-paths.js';
import { readAuditLog } from '../../server/audit-log.js';
import { robotAuthHeaders, robotHeaderArgs } from '../../../../test/support/robot-token.js';

const run = promisify(execFile);
const structured = (result: { structuredContent?: unknown }): Record<string, unknown> => (result.structuredContent ?? {}) as Record<string, unknown>;

describe('the real robot console in Chromium', () => {
  let session: ConsoleSession | undefined;
  let audit: string;
  before(async () => {
    audit = join(mkdtempSync(join(tmpdir(), 'robot-console-')), 'audit.jsonl');
    session = await openConsoleSession('packages/robot-arm/main.ts', ['--port', '0', '--audit-log', audit, '--rate', '50'], { mcpHeaders: robotAuthHeaders });
  });
  after(() => session?.close());

  it('toolwright call asks a motion; the console shows its planned path; approve → the call completes and the arm moved', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, served } = session;
    const before = await tcpOf(page);
    const args = JSON.stringify({ target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
    const call = run(process.execPath, ['--import', TSX_LOADER, repoPath('src/cli/main.ts'), 'call', served.mcpUrl, 'move_arm_to_pose', args, ...robotHeaderArgs()], { timeout: 60_000 });
    await page.waitForSelector('[data-testid=approve]');
    assert.notEqual((await page.getAttribute('[data-testid=planned-path-top]', 'points')) ?? '', '');
    assert.match((await page.textContent('[data-testid=approval-queue]')) ?? '', /Approve this motion of the simulated Universal Robots UR5e\?/);
    assert.match((await page.textContent('[data-testid=approval-queue]')) ?? '', /\d\.\d\d s · peak \d+ mm\/s · grip none · plan [0-9a-f]{16}…/);
    await page.click('[data-testid=approve]');
    const { stdout } = await call;
    assert.match(stdout, /"status": "completed"/);
    assert.match(stdout, /\nisError: false\n$/);
    await page.waitForFunction(() => document.querySelector('[data-testid=arm-status]')?.getAttribute('data-moving') === 'false' && /TCP -450(\.0)?, -150(\.0)?, 420(\.0)?/.test(document.querySelector('[data-testid=arm-status]')?.textContent ?? ''));
    assert.notEqual(await tcpOf(page), before);
    assert.equal(await page.getAttribute('[data-testid=planned-path-top]', 'points'), '');
    assert.equal(await page.getAttribute('[data-testid=audit-verified]', 'data-ok'), 'true');
    await page.waitForFunction(() => /tool_call: tool move_arm_to_pose, outcome ok/.test(document.querySelector('[data-testid=audit-log]')?.textContent ?? ''));
    const record = readAuditLog(audit).records.findLast((r) => r.type === 'tool_call' && r.tool === 'move_arm_to_pose');
    assert.equal((record?.approval as { approvedBy?: { kind: string } }).approvedBy?.kind, 'operator');
  });

  it('decline → the call is refused naming the operator, and nothing moves', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    const before = await tcpOf(page);
    const call = client.callTool('move_arm_to_pose', { target_position: { x_mm: -400, y_mm: 100, z_mm: 400 } });
    await page.waitForSelector('[data-testid=decline]');
    await page.click('[data-testid=decline]');
    const result = await call;
    assert.equal(result.isError, true);
    assert.equal((structured(result).refused as { code: string }).code, 'approval_declined');
    assert.match(text(result), /^Refused at stage approval \(approval_declined\): The call of move_arm_to_pose was declined by console operator \(pid \d+\)\. Nothing was executed\.$/);
    assert.equal(await tcpOf(page), before);
  });

  it('e-stop during a slow motion stops it and latches; a new motion is refused; reset needs a confirmation', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    const call = client.callTool('move_arm_to_pose', { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 });
    await approveShown(page);
    await waitForArm(page, { moving: true });
    await page.click('[data-testid=estop]');
    const result = await call;
    assert.equal(result.isError, true);
    assert.equal(structured(result).status, 'emergency_stopped', text(result));
    await waitForArm(page, { estop: true, moving: false });
    const stoppedAt = await tcpOf(page);
    const next = await client.callTool('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
    assert.equal((structured(next).refused as { code: string }).code, 'estop_latched');
    assert.equal(await tcpOf(page), stoppedAt);
    await resetEstopThroughConfirmation(page);
    const actions = readAuditLog(audit).records.filter((r) => r.type === 'operator_action').map((r) => `${String(r.action)} by ${String(r.operator)}`);
    // The console's reset is SIGUSR2's: it also acknowledges a protective-stop fault, recorded even when there was none.
    assert.deepEqual(actions.map((a) => a.replace(/\d+/, 'PID')), ['emergency_stop by console operator (pid PID)', 'clear_emergency_stop by console operator (pid PID)', 'clear_fault by console operator (pid PID)']);
  });

  it('refuses every action without the token; the MCP call stays held until the console decides', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client, served } = session;
    const post = (path: string, body: unknown): Promise<Response> => postConsoleApi(served.consoleUrl, path, body);
    const before = await tcpOf(page);
    const call = client.callTool('move_arm_to_pose', { target_position: { x_mm: -420, y_mm: 50, z_mm: 380 } });
    await page.waitForSelector('[data-testid=approve]');
    const pending = await getConsoleApi<{ id: string; digest: string }[]>(served.consoleUrl, '/console/api/approvals');
    assert.equal(pending.length, 1);
    assert.equal((await post('/console/api/approvals/decide', { id: pending[0]!.id, approve: true, digest: pending[0]!.digest })).status, 401);
    assert.equal((await post('/console/api/estop', {})).status, 401);
    assert.equal((await fetch(new URL('/console/api/arm', served.consoleUrl))).status, 401);
    await page.click('[data-testid=decline]');
    assert.equal((await call).isError, true);
    assert.equal(await tcpOf(page), before);
    assert.equal(await page.getAttribute('[data-testid=arm-status]', 'data-estop'), 'false');
  });

  it('a client without the /mcp token that declares elicitation and answers its own question: 401, nothing is held and nothing moves', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, served } = session;
    const args = { target_position: { x_mm: -430, y_mm: -120, z_mm: 400 } };
    const before = await tcpOf(page);
    // The attack of issue 29: declare elicitation and answer your own question, without the token file.
    const body = { jsonrpc: '2.0', id: 8000, method: 'tools/call', params: { name: 'move_arm_to_pose', arguments: args, inputResponses: { approval: { action: 'accept', content: { approve: true } } }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } } } };
    const res = await fetch(served.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'move_arm_to_pose' }, body: JSON.stringify(body) });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(await getConsoleApi(served.consoleUrl, '/console/api/approvals'), []);
    assert.equal(await tcpOf(page), before, 'nothing moved');
  });

  it('a client that can elicit: its motion shows as awaiting the client\'s user with its plan; no approve, decline refuses the user\'s accept', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, served } = session;
    const args = { target_position: { x_mm: -430, y_mm: -120, z_mm: 400 } };
    let id = 9000;
    const eliciting = async (extra: Record<string, unknown> = {}) => {
      const body = { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'move_arm_to_pose', arguments: args, ...extra, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } } } };
      const res = await fetch(served.mcpUrl, { method: 'POST', headers: { ...robotAuthHeaders(), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'move_arm_to_pose' }, body: JSON.stringify(body) });
      return (await res.json()) as { result: { resultType?: string; requestState?: string; structuredContent?: { refused?: { code: string; message: string } } } };
    };
    const before = await tcpOf(page);
    const asked = await eliciting();
    assert.equal(asked.result.resultType, 'input_required');
    const entry = page.locator('[data-testid^=awaiting-user-]');
    await entry.waitFor();
    assert.match((await entry.textContent()) ?? '', /awaiting the client's user .*plan [0-9a-f]{16}…/s);
    assert.equal(await entry.locator('[data-testid=approve]').count(), 0, 'the operator cannot approve for the user');
    assert.notEqual((await page.getAttribute('[data-testid=planned-path-top]', 'points')) ?? '', '', 'its plan is drawn');
    await entry.locator('[data-testid=decline-user]').click();
    await entry.waitFor({ state: 'detached' });
    assert.equal(await page.getAttribute('[data-testid=planned-path-top]', 'points'), '');
    const answered = await eliciting({ requestState: asked.result.requestState, inputResponses: { approval: { action: 'accept', content: { approve: true } } } });
    assert.equal(answered.result.structuredContent?.refused?.code, 'approval_declined');
    assert.match(answered.result.structuredContent?.refused?.message ?? '', /^the motion was declined at the console by console operator \(pid \d+\) while it awaited the client's user$/);
    assert.equal(await tcpOf(page), before);
  });

  it('had no page errors', (t) => {
    if (session === undefined) return t.skip('chromium missing');
    assert.deepEqual(session.errors, []);
  });
});

describe('the real robot with --hold-to-run', () => {
  it('e-stops and latches the arm when the console page goes away during an approved motion', async (t) => {
    const audit = join(mkdtempSync(join(tmpdir(), 'robot-hold-')), 'audit.jsonl');
    const session = await openConsoleSession('packages/robot-arm/main.ts', ['--port', '0', '--audit-log', audit, '--hold-to-run', '--console-token', 'hold-to-run-test-token-0123456789'], { mcpHeaders: robotAuthHeaders });
    if (session === undefined) return t.skip('chromium missing');
    try {
      const { page, client, served } = session;
      assert.match(served.consoleUrl, /^http:\/\/127\.0\.0\.1:\d+\/console\?token=hold-to-run-test-token-0123456789$/);
      const call = client.callTool('move_arm_to_pose', { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 });
      await approveShown(page, call);
      await waitForArm(page, { moving: true });
      await page.close();
      const result = await call;
      assert.equal(result.isError, true);
      assert.equal(structured(result).status, 'emergency_stopped', text(result));
      assert.match(text(result), /hold-to-run: the console disconnected during a motion/);
      assert.deepEqual(await armMovingAndLatched(served.consoleUrl), [false, true]);
    } finally {
      await session.close();
    }
  });
});
