/**
 * The arm view MCP App in real headless Chromium, inside a page that plays the HOST side of the
 * ext-apps protocol by hand (JSON-RPC over postMessage, no SDK on that side): the host puts the App
 * HTML, read from the real robot server over HTTP, in a sandboxed iframe, answers `ui/initialize`,
 * proxies the App's `resources/read` to the server (through the test process, over real HTTP) and
 * sends `ui/notifications/tool-result` after a tool call. The App draws the arm, is updated after
 * the arm moved, renders no control, asks the host for nothing but reads, and logs no error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { openBrowserSession } from '../../../../test/console/browser-session.js';
import type { BrowserSession } from '../../../../test/console/browser-session.js';
import { ARM_APP_URI } from '../../view/arm-app.js';
import { startHarness, type Harness } from '../support/robot-harness.js';

/** The host page: an iframe for the App and a hand-written ext-apps host loop. */
const HOST_PAGE = `<!doctype html><html><body><iframe id="view" sandbox="allow-scripts" style="width:700px;height:500px"></iframe><script>
window.hostMethods = [];
const frame = document.getElementById('view');
const reply = (id, body) => frame.contentWindow.postMessage({ jsonrpc: '2.0', id, ...body }, '*');
window.addEventListener('message', async (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  if (typeof m !== 'object' || m === null || m.jsonrpc !== '2.0' || typeof m.method !== 'string') return;
  window.hostMethods.push(m.method);
  if (m.id === undefined) return;
  if (m.method === 'ui/initialize') {
    return reply(m.id, { result: { protocolVersion: m.params.protocolVersion, hostInfo: { name: 'test-host', version: '1.0.0' },
      hostCapabilities: { serverResources: {} }, hostContext: { theme: 'light', displayMode: 'inline' } } });
  }
  if (m.method === 'resources/read') {
    const answer = JSON.parse(await window.hostReadResource(JSON.stringify(m.params)));
    return reply(m.id, answer);
  }
  reply(m.id, { error: { code: -32601, message: 'test host: method not offered: ' + m.method } });
});
window.loadApp = (html) => { frame.srcdoc = html; };
window.sendToolResult = (result) => frame.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result }, '*');
</script></body></html>`;

describe('the arm view MCP App in Chromium, hosted by a hand-written ext-apps host', () => {
  let session: BrowserSession<Harness> | undefined;
  let h: Harness;
  let page: Page;
  let app: Frame;
  const tcpCx = async (): Promise<string> => (await app.getAttribute('[data-testid=tcp-top]', 'cx')) ?? '';
  const updateCount = async (): Promise<number> => Number(await app.textContent('[data-testid=update-count]'));

  before(async () => {
    session = await openBrowserSession(() => startHarness({ approval: 'off' }), (harness) => harness.close());
    if (session === undefined) return;
    ({ server: h, page } = session);
    // The host's proxy: the App's resources/read goes to the robot server over real HTTP.
    await page.exposeFunction('hostReadResource', async (params: string) => {
      const { uri } = JSON.parse(params) as { uri: string };
      const reply = await h.rpc('resources/read', { uri }, { name: uri });
      return JSON.stringify(reply.body.error !== undefined ? { error: reply.body.error } : { result: reply.body.result });
    });
    await page.setContent(HOST_PAGE);
    const read = await h.rpc('resources/read', { uri: ARM_APP_URI }, { name: ARM_APP_URI });
    const html = read.body.result?.contents?.[0]?.text ?? '';
    await page.evaluate((text) => (window as Window & { loadApp?(html: string): void }).loadApp!(text), html);
    const handle = await page.waitForSelector('#view');
    app = (await handle.contentFrame())!;
    await app.waitForSelector('body[data-ready="true"]');
  });
  after(() => session?.close());

  it('draws the arm from the state it read through the host: links, TCP, envelope, objects', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    assert.notEqual(await tcpCx(), '');
    assert.notEqual((await app.getAttribute('[data-testid=envelope-top]', 'r')) ?? '', '');
    assert.match((await app.textContent('[data-testid=arm-status]')) ?? '', /^idle · TCP -?\d+, -?\d+, -?\d+ mm · gripper \d+ mm/);
    assert.ok((await app.$$('[data-testid=arm-view] svg')).length === 2, 'top and side views');
  });

  it('is updated after a tool call moved the arm (tool-result notification → read → redraw)', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    const before = await tcpCx();
    const seen = await updateCount();
    const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
    assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
    await page.evaluate((result) => (window as Window & { sendToolResult?(r: unknown): void }).sendToolResult!(result), reply.body.result);
    await app.waitForFunction((n) => Number(document.querySelector('[data-testid=update-count]')?.textContent) > n, seen);
    await app.waitForFunction((cx) => document.querySelector('[data-testid=tcp-top]')?.getAttribute('cx') !== cx, before);
    assert.match((await app.textContent('[data-testid=arm-status]')) ?? '', /TCP -450, -150, 420 mm/);
  });

  it('is view-only: no control rendered, and it asked the host only to initialize and read', async (t) => {
    if (session === undefined) return t.skip('chromium missing');
    assert.equal((await app.$$('button, input, form, a[href]')).length, 0);
    const methods = new Set(await page.evaluate(() => (window as Window & { hostMethods?: string[] }).hostMethods ?? []));
    assert.deepEqual([...methods].filter((m) => !m.startsWith('ui/notifications/')).sort(), ['resources/read', 'ui/initialize']);
    assert.deepEqual(session.errors, []);
  });
});
