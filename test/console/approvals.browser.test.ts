/**
 * The approvals tab of `toolwright serve <module> --console` in real headless Chromium: a call the
 * module holds for an operator (`ctx.approvals.awaitOperator`) appears live with what it would do
 * and who asked; Approve runs it (the record names the `--operator`), Decline refuses it and the
 * tool never runs on; each is listed as decided; the page has no errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openConsoleSession } from './browser-session.js';
import type { ConsoleSession } from './browser-session.js';
import { repoPath } from '../support/repo-paths.js';

const text = (result: { content?: readonly { type: string; text?: string }[] }): string => (result.content ?? []).map((c) => c.text ?? '').join('');

describe('approvals tab in Chromium', () => {
  let session: ConsoleSession | undefined;
  before(async () => {
    session = await openConsoleSession('src/cli/main.ts', ['serve', repoPath('test', 'fixtures', 'console', 'approval-tools.ts'), '--http', '0', '--console', '--operator', 'anna']);
    if (session === undefined) return;
    await session.page.goto(`${session.served.consoleUrl}&tab=approvals`);
    await session.page.waitForSelector('body[data-ready="true"]');
  });
  after(() => session?.close());

  it('shows a held call live; Approve runs it, decided by the --operator', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    assert.equal(await page.textContent('[data-testid=approval-empty]'), 'no call is waiting for an operator');
    const call = client.callTool('delete_report', { id: 'r-12' });
    await page.waitForSelector('[data-testid=approve]');
    assert.equal(await page.textContent('[data-testid=approval-summary]'), 'delete report r-12');
    assert.deepEqual(JSON.parse((await page.textContent('[data-testid=approval-details]')) ?? ''), { id: 'r-12', size: '12 KB', owner: 'finance' });
    assert.match((await page.textContent('[data-testid=approval-queue]')) ?? '', /tools\/call delete_report · asked by an anonymous client \(toolwright-client \S+\) · \d+ s left/);
    assert.match((await page.textContent('[data-testid=approval-digest]')) ?? '', /^digest \S+$/);
    await page.click('[data-testid=approve]');
    const result = await call;
    assert.equal(result.isError, undefined, text(result));
    assert.equal(text(result), 'deleted r-12 (approved by anna)');
    await page.waitForSelector('[data-testid=approval-empty]');
    assert.match((await page.textContent('[data-testid=approval-decided]')) ?? '', /delete_report: approved by anna \(delete report r-12\)/);
  });

  it('Decline refuses the call naming the operator; the tool does not go on', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    const call = client.callTool('delete_report', { id: 'r-13' });
    await page.waitForSelector('[data-testid=decline]');
    await page.click('[data-testid=decline]');
    const result = await call;
    assert.equal(result.isError, true);
    assert.match(text(result), /declined/i);
    assert.match(text(result), /anna/);
    assert.doesNotMatch(text(result), /deleted/);
    await page.waitForSelector('[data-testid=approval-empty]');
    assert.match((await page.locator('[data-testid=approval-decided] li').first().textContent()) ?? '', /delete_report: declined by anna \(delete report r-13\)/);
    assert.deepEqual(session.errors, []);
  });
});
