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
import type { Page } from 'playwright-core';
import { connect } from '../../src/client/index.js';
import type { McpClient } from '../../src/client/index.js';
import { collectPageErrors, launchChromium } from './chromium.js';
import type { LaunchedChromium } from './chromium.js';
import { startWithConsole } from './serve-child.js';
import type { ServedChild } from './serve-child.js';

const SERVER = 'test/fixtures/console/arm-console-server.ts';
const tcpOf = async (page: Page): Promise<string> => (await page.getAttribute('[data-testid=tcp-top]', 'cx')) ?? '';
const text = (result: { content?: unknown }): string => ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

describe('robot console in Chromium', () => {
  let browser: LaunchedChromium | undefined;
  let served: ServedChild;
  let page: Page;
  let errors: string[];
  let client: McpClient;
  before(async () => {
    browser = await launchChromium();
    if (browser === undefined) return;
    served = await startWithConsole(SERVER, []);
    client = connect(served.mcpUrl, { timeoutMs: 60_000 });
    page = await browser.newPage();
    errors = collectPageErrors(page);
    await page.goto(served.consoleUrl);
    await page.waitForSelector('body[data-ready="true"]');
  });
  after(async () => {
    await client?.close();
    await browser?.close();
    await served?.stop();
  });

  it('shows the planned path before approval; approve → the held call completes and the arm moves', async (t) => {
    if (browser === undefined) return t.skip('chromium missing');
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
    if (browser === undefined) return t.skip('chromium missing');
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
    if (browser === undefined) return t.skip('chromium missing');
    const before = Number(await page.textContent('[data-testid=update-count]'));
    // 100 ticks of 20 ms: 2 s of motion; the console forwards up to 30 states/s.
    const call = client.callTool('move_tcp', { x: 450, y: 0, z: 350, steps: 100 });
    await page.waitForSelector('[data-testid=approve]');
    await page.click('[data-testid=approve]');
    const result = await call;
    assert.equal(result.isError, undefined, text(result));
    const received = Number(await page.textContent('[data-testid=update-count]')) - before;
    process.stdout.write(`# ${received} view updates during a 2 s motion\n`);
    assert.ok(received >= 40, `${received} updates`);
    assert.ok(((await page.getAttribute('[data-testid=trace-side]', 'points')) ?? '').split(' ').length >= 40);
  });

  it('e-stop during a slow motion stops it and latches; a new motion is refused; reset needs a confirmation', async (t) => {
    if (browser === undefined) return t.skip('chromium missing');
    const call = client.callTool('move_tcp', { x: 200, y: -300, z: 150, steps: 1000 });
    await page.waitForSelector('[data-testid=approve]');
    await page.click('[data-testid=approve]');
    await page.waitForFunction(() => document.querySelector('[data-testid=arm-status]')?.getAttribute('data-moving') === 'true');
    assert.equal(await page.isEnabled('[data-testid=estop]'), true);
    await page.click('[data-testid=estop]');
    const result = await call;
    assert.equal(result.isError, true);
    assert.equal(text(result), 'motion stopped: emergency stop: e-stop pressed in the console');
    await page.waitForFunction(() => document.querySelector('[data-testid=arm-status]')?.getAttribute('data-estop') === 'true');
    const stoppedAt = await tcpOf(page);
    // Latched: the next approved motion does not run.
    const next = client.callTool('move_tcp', { x: 300, y: 0, z: 300 });
    await page.waitForSelector('[data-testid=approve]');
    await page.click('[data-testid=approve]');
    const refused = await next;
    assert.equal(refused.isError, true);
    assert.equal(text(refused), 'motion stopped: the emergency stop is latched');
    assert.equal(await tcpOf(page), stoppedAt);
    assert.equal(await page.isEnabled('[data-testid=estop]'), true);
    // Dismissing the confirmation changes nothing; accepting it resets.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.click('[data-testid=estop-reset]');
    assert.equal(await page.getAttribute('[data-testid=arm-status]', 'data-estop'), 'true');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('[data-testid=estop-reset]');
    await page.waitForFunction(() => document.querySelector('[data-testid=arm-status]')?.getAttribute('data-estop') === 'false');
    assert.match((await page.textContent('[data-testid=audit-log]')) ?? '', /estop-reset: ops-test reset the emergency stop/);
  });

  it('refuses every action without the token, and an approval without the digest', async (t) => {
    if (browser === undefined) return t.skip('chromium missing');
    const base = new URL(served.consoleUrl);
    const post = (path: string, body: unknown, token?: string): Promise<Response> => fetch(new URL(path, base), { method: 'POST', headers: { 'content-type': 'application/json', ...(token !== undefined ? { 'x-console-token': token } : {}) }, body: JSON.stringify(body) });
    const before = await tcpOf(page);
    const call = client.callTool('move_tcp', { x: 350, y: 100, z: 300 });
    await page.waitForSelector('[data-testid=approve]');
    const pending = (await (await fetch(new URL(`/console/api/approvals${base.search}`, base))).json()) as { id: string; digest: string }[];
    assert.equal(pending.length, 1);
    assert.equal((await post('/console/api/approvals/decide', { id: pending[0]!.id, approve: true, digest: pending[0]!.digest })).status, 401);
    assert.equal((await post('/console/api/approvals/decide', { id: pending[0]!.id, approve: true, digest: pending[0]!.digest }, 'x'.repeat(43))).status, 403);
    assert.equal((await post('/console/api/estop', {})).status, 401);
    const token = base.searchParams.get('token')!;
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
    if (browser === undefined) return t.skip('chromium missing');
    assert.deepEqual(errors, []);
  });
});

describe('hold-to-run', () => {
  it('stops and latches the arm when the console page goes away during an approved motion', async (t) => {
    const browser = await launchChromium();
    if (browser === undefined) return t.skip('chromium missing');
    const served = await startWithConsole(SERVER, ['--hold-to-run']);
    const client = connect(served.mcpUrl, { timeoutMs: 60_000 });
    try {
      const page = await browser.newPage();
      await page.goto(served.consoleUrl);
      await page.waitForSelector('body[data-ready="true"]');
      const call = client.callTool('move_tcp', { x: 200, y: 300, z: 150, steps: 1000 });
      await page.waitForSelector('[data-testid=approve]');
      await page.click('[data-testid=approve]');
      await page.waitForFunction(() => document.querySelector('[data-testid=arm-status]')?.getAttribute('data-moving') === 'true');
      await page.close();
      const result = await call;
      assert.equal(result.isError, true);
      assert.equal(text(result), 'motion stopped: emergency stop: hold-to-run: the console disconnected during a motion');
      const base = new URL(served.consoleUrl);
      const arm = (await (await fetch(new URL(`/console/api/arm${base.search}`, base))).json()) as { state: { moving: boolean; estop: { latched: boolean } } };
      assert.deepEqual([arm.state.moving, arm.state.estop.latched], [false, true]);
    } finally {
      await client.close();
      await browser.close();
      await served.stop();
    }
  });
});
