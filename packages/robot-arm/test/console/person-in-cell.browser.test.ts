/**
 * A person in the cell at the operator console (issue 30, item 6), in real headless Chromium against
 * the real server (`main.ts --controller inprocess`, so the test can run without a second child; the
`robot-sim` path is test/controller/person-in-cell-drivers.test.ts).
 * The operator sets where the person is; the page shows the zone and the speed allowed; the setting
 * is in the audit log under the operator's name; a person in the protective zone holds the arm in
 * fault and the console's reset is refused until the zone is clear; no page errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openConsoleSession } from '../../../../test/console/browser-session.js';
import type { ConsoleSession } from '../../../../test/console/browser-session.js';
import { robotAuthHeaders } from '../../../../test/support/robot-token.js';
import { readAuditLog } from '../../server/audit-log.js';

describe('a person in the cell at the robot console in Chromium', () => {
  let session: ConsoleSession | undefined;
  let audit: string;
  before(async () => {
    audit = join(mkdtempSync(join(tmpdir(), 'robot-person-')), 'audit.jsonl');
    session = await openConsoleSession('packages/robot-arm/main.ts', ['--port', '0', '--audit-log', audit, '--controller', 'inprocess', '--approval', 'off'], { mcpHeaders: robotAuthHeaders });
  });
  after(() => session?.close());

  it('the operator sets a person in the warning zone, then the protective zone: the page and get_device_status show it, the reset waits for a clear zone', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client, errors } = session;
    await page.waitForFunction(() => document.querySelector('[data-testid=presence]')?.getAttribute('data-zone') === 'clear');
    // The page's example zones: warning within 1500 mm of the base axis, protective within 900 mm.
    await page.fill('[data-testid=presence-person]', '1200, 0, 500');
    await page.click('[data-testid=presence-set]');
    await page.waitForFunction(() => document.querySelector('[data-testid=presence]')?.getAttribute('data-zone') === 'warning');
    assert.match((await page.textContent('[data-testid=presence]')) ?? '', /^WARNING: person at 1200, 0, 500 mm; TCP allowed 100 mm\/s/);
    const status = (await client.callTool('get_device_status', {})).structuredContent as { presence: { zone: string; allowed_tcp_speed_mm_s: number } };
    assert.equal(status.presence.zone, 'warning');
    assert.equal(status.presence.allowed_tcp_speed_mm_s, 100);
    const setting = readAuditLog(audit).records.find((r) => r.type === 'operator_action' && r.action === 'set_presence');
    assert.match(String(setting?.operator), /^console operator \(pid \d+\)$/);
    assert.equal(setting?.zone, 'warning');

    await page.fill('[data-testid=presence-person]', '500, 0, 500');
    await page.click('[data-testid=presence-set]');
    await page.waitForFunction(() => document.querySelector('[data-testid=presence]')?.getAttribute('data-zone') === 'protective');
    assert.match((await page.textContent('[data-testid=presence]')) ?? '', /PROTECTIVE: .*TCP allowed 0 mm\/s.*protective stop: a person entered the protective zone/);
    const refused = await client.callTool('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
    assert.equal(refused.isError, true);
    assert.equal((refused.structuredContent as { refused: { stage: string } }).refused.stage, 'state_gate');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('[data-testid=estop-reset]');
    await page.waitForFunction(() => /not reset: .*protective zone is not clear/.test(document.querySelector('[data-testid=console-message]')?.textContent ?? ''));

    await page.fill('[data-testid=presence-person]', '');
    await page.click('[data-testid=presence-set]');
    await page.waitForFunction(() => document.querySelector('[data-testid=presence]')?.getAttribute('data-zone') === 'clear');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('[data-testid=estop-reset]');
    await page.waitForFunction(() => document.querySelector('[data-testid=console-message]')?.textContent === 'e-stop reset');
    const moved = await client.callTool('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
    assert.equal((moved.structuredContent as { status: string }).status, 'completed');
    const actions = readAuditLog(audit).records.filter((r) => r.type === 'operator_action').map((r) => String(r.action));
    assert.deepEqual(actions, ['set_presence', 'set_presence', 'clear_emergency_stop', 'clear_fault', 'set_presence', 'clear_emergency_stop', 'clear_fault']);
    // The one failed request is the refused reset (the browser logs every non-2xx answer); nothing else.
    assert.deepEqual(errors, ['console.error: Failed to load resource: the server responded with a status of 503 (Service Unavailable)']);
  });

  it('a malformed setting (400) and one the sensor refuses (409) are shown and change nothing', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const { page, client } = session;
    await page.fill('[data-testid=presence-person]', '1200, 0, 500');
    await page.fill('[data-testid=presence-config]', '{"warningZones": 3}');
    await page.click('[data-testid=presence-set]');
    await page.waitForFunction(() => /presence not set: .*"config" must be/.test(document.querySelector('[data-testid=console-message]')?.textContent ?? ''));
    await page.fill('[data-testid=presence-config]', '{"warningZones": [], "protectiveZones": [], "warningSpeedMmS": 300}');
    await page.click('[data-testid=presence-set]');
    await page.waitForFunction(() => /presence not set: .*below the 250 mm\/s cap/.test(document.querySelector('[data-testid=console-message]')?.textContent ?? ''));
    const status = (await client.callTool('get_device_status', {})).structuredContent as { presence: { zone: string; person_mm: unknown; warning_speed_mm_s: number } };
    assert.equal(status.presence.zone, 'clear');
    assert.equal(status.presence.person_mm, null);
    assert.equal(status.presence.warning_speed_mm_s, 100);
  });
});
