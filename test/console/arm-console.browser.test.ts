/**
 * The robot console in real headless Chromium, against the test feed behind a real server whose
 * tool waits for the operator through the one approval mechanism (test/fixtures/console/
 * arm-console-server.ts), called by the project's real MCP client (which cannot elicit, so the call
 * is held open). Approve → the call completes and the arm moves; decline → refused, nothing moves;
 * e-stop during a slow motion stops it and latches, reset needs a confirmation; view updates during
 * motion; the audit chain is shown verified; no page errors; hold-to-run stops the arm when the
 * console goes away.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { approveShown, armMovingAndLatched, getConsoleApi, postConsoleApi, resetEstopThroughConfirmation, resultText as text, tcpOf, waitForArm } from './arm-console-page.js';
import { openConsoleSession } from './browser-session.js';
import type { ConsoleSession } from './browser-session.js';

const SERVER = 'test/fixtures/console/arm-console-server.ts';

describe('robot console in Chromium', () => {
  let session: ConsoleSession | undefined;
  before(async () => {
    session = await openConsoleSession(SERVER, []);
  });
  after(() => session?.close());

  it('shows the planned path before approval; approve → the held call completes and the arm moves', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    const before = await tcpOf(page);
    const call = client.callTool('move_tcp', { x: 300, y: 250, z: 200 });
    await page.waitForSelector('[data-testid=approve]');
    assert.notEqual((await page.getAttribute('[data-testid=planned-path-top]', 'points')) ?? '', '');
    assert.match((await page.textContent('[data-testid=approval-queue]')) ?? '', /Move TCP to 300, 250, 200 mm0\.50 s · peak \d+ mm\/s · grip none · plan [0-9a-f]{16}…/);
    await page.click('[data-testid=approve]');
    const result = await call;
    assert.equal(result.isError, undefined, text(result));
    assert.deepEqual(result.structuredContent, { tcp: [300, 250, 200] });
    await page.waitForFunction(() => document.querySelector('[data-testid=arm-status]')?.getAttribute('data-moving') === 'false' && /TCP 300, 250, 200/.test(document.querySelector('[data-testid=arm-status]')?.textContent ?? ''));
    assert.notEqual(await tcpOf(page), before);
    assert.equal(await page.getAttribute('[data-testid=planned-path-top]', 'points'), '');
    assert.match((await page.textContent('[data-testid=audit-log]')) ?? '', /motion-start: ops-test approved plan/);
    assert.equal(await page.getAttribute('[data-testid=audit-verified]', 'data-ok'), 'true');
  });

  it('decline → the call is refused naming the operator, and nothing moves', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    const before = await tcpOf(page);
    const updates = await page.textContent('[data-testid=update-count]');
    const call = client.callTool('move_tcp', { x: 500, y: -200, z: 250 });
    await page.waitForSelector('[data-testid=decline]');
    await page.click('[data-testid=decline]');
    const result = await call;
    assert.equal(result.isError, true);
    assert.match(text(result), /declined/i);
    assert.match(text(result), /ops-test/);
    assert.equal(await tcpOf(page), before);
    assert.equal(await page.textContent('[data-testid=update-count]'), updates);
  });

  it('updates the view at ≥ 20 updates/s of motion time during a motion', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    const before = Number(await page.textContent('[data-testid=update-count]'));
    // 100 ticks of 20 ms: 2 s of motion; the console forwards up to 30 states/s.
    const call = client.callTool('move_tcp', { x: 450, y: 0, z: 350, steps: 100 });
    await approveShown(page);
    const result = await call;
    assert.equal(result.isError, undefined, text(result));
    // The call answers when the motion ends; the page counts once the last state (at rest) has arrived.
    await waitForArm(page, { moving: false });
    const received = Number(await page.textContent('[data-testid=update-count]')) - before;
    process.stdout.write(`# ${received} view updates during a 2 s motion\n`);
    assert.ok(received >= 40, `${received} updates`);
    assert.ok(((await page.getAttribute('[data-testid=trace-side]', 'points')) ?? '').split(' ').length >= 40);
  });

  it('e-stop during a slow motion stops it and latches; a new motion is refused; reset needs a confirmation', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    const call = client.callTool('move_tcp', { x: 200, y: -300, z: 150, steps: 1000 });
    await approveShown(page);
    await waitForArm(page, { moving: true });
    assert.equal(await page.isEnabled('[data-testid=estop]'), true);
    await page.click('[data-testid=estop]');
    const result = await call;
    assert.equal(result.isError, true);
    assert.equal(text(result), 'motion stopped: emergency stop: e-stop pressed in the console');
    await waitForArm(page, { estop: true });
    const stoppedAt = await tcpOf(page);
    // Latched: the next approved motion does not run.
    const next = client.callTool('move_tcp', { x: 300, y: 0, z: 300 });
    await approveShown(page);
    const refused = await next;
    assert.equal(refused.isError, true);
    assert.equal(text(refused), 'motion stopped: the emergency stop is latched');
    assert.equal(await tcpOf(page), stoppedAt);
    assert.equal(await page.isEnabled('[data-testid=estop]'), true);
    await resetEstopThroughConfirmation(page);
    assert.match((await page.textContent('[data-testid=audit-log]')) ?? '', /estop-reset: ops-test reset the emergency stop/);
  });

  it('refuses every action without the token, and an approval without the digest', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    const { consoleUrl } = session.served;
    const post = (path: string, body: unknown, token?: string): Promise<Response> => postConsoleApi(consoleUrl, path, body, token);
    const before = await tcpOf(page);
    const call = client.callTool('move_tcp', { x: 350, y: 100, z: 300 });
    await page.waitForSelector('[data-testid=approve]');
    const pending = await getConsoleApi<{ id: string; digest: string }[]>(consoleUrl, '/console/api/approvals');
    assert.equal(pending.length, 1);
    assert.equal((await post('/console/api/approvals/decide', { id: pending[0]!.id, approve: true, digest: pending[0]!.digest })).status, 401);
    assert.equal((await post('/console/api/approvals/decide', { id: pending[0]!.id, approve: true, digest: pending[0]!.digest }, 'x'.repeat(43))).status, 403);
    assert.equal((await post('/console/api/estop', {})).status, 401);
    const token = new URL(consoleUrl).searchParams.get('token')!;
    const noDigest = await post('/console/api/approvals/decide', { id: pending[0]!.id, approve: true }, token);
    assert.equal(noDigest.status, 400);
    assert.deepEqual(await noDigest.json(), { error: 'approving needs the "digest" the operator saw' });
    const wrong = await post('/console/api/approvals/decide', { id: pending[0]!.id, approve: true, digest: 'f'.repeat(64) }, token);
    assert.equal(wrong.status, 409);
    assert.equal(((await wrong.json()) as { reason: string }).reason, 'wrong-digest');
    assert.equal((await post('/console/api/estop/reset', {}, token)).status, 400);
    await page.click('[data-testid=decline]');
    assert.equal((await call).isError, true);
    assert.equal(await tcpOf(page), before);
    assert.equal(await page.getAttribute('[data-testid=arm-status]', 'data-estop'), 'false');
  });

  it('had no page errors', (t) => {
    if (session === undefined) return t.skip('chromium missing');
    assert.deepEqual(session.errors, []);
  });
});

describe('hold-to-run', () => {
  it('stops and latches the arm when the console page goes away during an approved motion', async (t) => {
    const session = await openConsoleSession(SERVER, ['--hold-to-run']);
    if (session === undefined) return t.skip('chromium missing');
    try {
      const { page, client } = session;
      const call = client.callTool('move_tcp', { x: 200, y: 300, z: 150, steps: 1000 });
      await approveShown(page);
      await waitForArm(page, { moving: true });
      await page.close();
      const result = await call;
      assert.equal(result.isError, true);
      assert.equal(text(result), 'motion stopped: emergency stop: hold-to-run: the console disconnected during a motion');
      assert.deepEqual(await armMovingAndLatched(session.served.consoleUrl), [false, true]);
    } finally {
      await session.close();
    }
  });
});
