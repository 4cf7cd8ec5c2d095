/**
 * The robot arm's MCP App (ui://toolwright-robot-arm/arm-view.html) inside a real MCP Apps host:
 * the MCP Inspector's web UI (2.12.0, test/console/inspector-web.ts) in headless Chromium, connected
 * to the robot server over Streamable HTTP on 127.0.0.1. The Inspector's own documented recipe
 * (deep link → "Open App") calls get_device_status, puts our App in its sandbox proxy (a second
 * origin) and a nested srcdoc iframe under the CSP it builds from our resource, and answers the
 * App's `ui/initialize` and `resources/read`. Asserted: the App draws the arm from the server's
 * state, follows a motion made by another client (live, through the Inspector's resources/read
 * proxy), the Inspector really called the tool (the server's audit log), the App renders no control,
 * and no page logs an error. Everything runs on loopback; the one off-machine request the Inspector
 * makes (Google Fonts) is answered locally.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { ARM_VIEW_STATE_URI, type ArmAppState } from '../../packages/robot-arm/view/arm-app.js';
import { startHarness, type Harness } from '../../packages/robot-arm/test/support/robot-harness.js';
import { openBrowserSession } from './browser-session.js';
import { CHROMIUM_MISSING } from './chromium.js';
import type { BrowserSession } from './browser-session.js';
import { confineToLoopback, startInspectorWeb } from './inspector-web.js';
import type { InspectorWeb } from './inspector-web.js';

/** The robot server (in-process, simulated time) and the Inspector child in front of it. */
interface Served {
  harness: Harness;
  inspector: InspectorWeb;
}

/** When set, the Inspector with the App open (after the motion) is saved there as a PNG, to look at. */
const SCREENSHOT = process.env.INSPECTOR_APP_SCREENSHOT;

describe('the arm view MCP App inside the MCP Inspector web UI', () => {
  let session: BrowserSession<Served> | undefined;
  let page: Page;
  let app: Frame;
  let offMachine: string[] = [];
  /** The Inspector's warnings about an App: `[ext-apps]` (protocol order) and `[mcp-app…]` (resource metadata). */
  const appWarnings: string[] = [];
  const status = async (): Promise<string> => (await app.textContent('[data-testid=arm-status]')) ?? '';
  const updateCount = async (): Promise<number> => Number(await app.textContent('[data-testid=update-count]'));
  /** The TCP line the App writes for a state (arm-app-page.ts: `TCP x, y, z mm`, whole mm). */
  const tcpLine = (state: ArmAppState): string => `TCP ${state.state.tcp.map((n) => n.toFixed(0)).join(', ')} mm`;
  const viewState = async (): Promise<ArmAppState> => {
    const read = await session!.server.harness.rpc('resources/read', { uri: ARM_VIEW_STATE_URI }, { name: ARM_VIEW_STATE_URI });
    return JSON.parse(read.body.result?.contents?.[0]?.text ?? 'null') as ArmAppState;
  };

  before(async () => {
    session = await openBrowserSession<Served>(
      async () => {
        const harness = await startHarness({ approval: 'off' });
        try {
          return { harness, inspector: await startInspectorWeb() };
        } catch (error) {
          await harness.close();
          throw error;
        }
      },
      async ({ harness, inspector }) => {
        try {
          await inspector.stop();
        } finally {
          await harness.close();
        }
      },
    );
    if (session === undefined) return;
    const { harness, inspector } = session.server;
    page = session.page;
    page.on('console', (message) => {
      if (message.type() === 'warning' && /^\[(ext-apps|mcp-app)/.test(message.text())) appWarnings.push(message.text());
    });
    offMachine = await confineToLoopback(session.browser.context);
    try {
      await page.goto(inspector.deepLink(harness.url, 'get_device_status'));
      await page.waitForSelector('[data-testid="connection-status"][data-status="connected"]');
      // The deep link selects the App and fills its (empty) form; opening it is the user's click.
      await page.click('[data-testid=open-app]');
      const outer = await page.waitForSelector(`iframe[src="${inspector.sandboxUrl}"]`);
      const sandbox = await outer.contentFrame();
      assert.ok(sandbox !== null, 'the sandbox proxy frame');
      const inner = await sandbox.waitForSelector('iframe');
      const frame = await inner.contentFrame();
      assert.ok(frame !== null, "the App's frame inside the sandbox proxy");
      app = frame;
      await app.waitForSelector('body[data-ready="true"]');
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nInspector output:\n${inspector.output()}`);
    }
  });
  after(() => session?.close());

  it("renders our App in the Inspector's sandbox: a nested srcdoc frame under the CSP built from our resource", async (t) => {
    if (session === undefined) return t.skip(CHROMIUM_MISSING);
    const outerSandbox = await page.$eval(`iframe[src="${session.server.inspector.sandboxUrl}"]`, (f) => f.getAttribute('title'));
    assert.equal(outerSandbox, 'Get device status');
    assert.notEqual(new URL(session.server.inspector.sandboxUrl).origin, session.server.inspector.origin);
    assert.equal(await app.parentFrame()?.$eval('iframe', (f) => f.hasAttribute('srcdoc')), true);
    // Our resource declares no `_meta.ui.csp`, so the Inspector allows no connections at all; the
    // App still works because it fetches nothing itself (all reads go through the host).
    const csp = await app.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.getAttribute('content') ?? '');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'none'/);
    assert.ok((await app.$$('[data-testid=arm-view] svg')).length === 2, 'top and side views');
  });

  it("shows the server's live arm state: the TCP it read through the Inspector matches the server's", async (t) => {
    if (session === undefined) return t.skip(CHROMIUM_MISSING);
    const state = await viewState();
    assert.match(await status(), new RegExp(`^idle · ${tcpLine(state)} · gripper \\d+ mm`));
    assert.notEqual((await app.getAttribute('[data-testid=tcp-top]', 'cx')) ?? '', '');
    assert.notEqual((await app.getAttribute('[data-testid=envelope-top]', 'r')) ?? '', '');
  });

  it('follows a motion made by another client (reads through the Inspector, no tool result needed)', async (t) => {
    if (session === undefined) return t.skip(CHROMIUM_MISSING);
    const seen = await updateCount();
    const cx = (await app.getAttribute('[data-testid=tcp-top]', 'cx')) ?? '';
    const reply = await session.server.harness.call('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
    assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
    await app.waitForFunction((line) => document.querySelector('[data-testid=arm-status]')?.textContent?.includes(line) === true, 'TCP -450, -150, 420 mm');
    assert.ok((await updateCount()) > seen);
    assert.notEqual(await app.getAttribute('[data-testid=tcp-top]', 'cx'), cx);
    if (SCREENSHOT !== undefined) await page.screenshot({ path: SCREENSHOT });
  });

  it('the Inspector really called the tool (audit log), the App is view-only, nothing errored or left the machine', async (t) => {
    if (session === undefined) return t.skip(CHROMIUM_MISSING);
    const records = readFileSync(session.server.harness.auditPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; tool?: string; transport?: string; outcome?: string });
    assert.ok(
      records.some((r) => r.type === 'tool_call' && r.tool === 'get_device_status' && r.transport === 'http' && r.outcome === 'ok'),
      'a get_device_status call over HTTP from the Inspector',
    );
    assert.equal((await app.$$('button, input, form, a[href]')).length, 0);
    assert.deepEqual(session.errors, []);
    assert.deepEqual(appWarnings, []);
    assert.deepEqual([...new Set(offMachine)], ['https://fonts.googleapis.com/css2']);
  });
});
