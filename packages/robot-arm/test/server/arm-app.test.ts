/**
 * The live arm view as an MCP App, over real HTTP: every robot tool names the App in `_meta.ui`
 * (and the legacy flat key); `resources/list` lists the App with the ext-apps mime type and its
 * state resource; `resources/read` returns one self-contained HTML document (script inline, nothing
 * fetched, no control of the arm in it) and the state the App draws, with the planned path of a
 * motion waiting for the operator.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PendingApproval } from 'toolwright';
import { ARM_APP_URI, ARM_VIEW_STATE_URI } from '../../view/arm-app.js';
import { isPlannedMotion } from '../../view/arm-feed.js';
import { startHarness, type Harness } from '../support/robot-harness.js';

interface ListedResource { uri: string; name: string; mimeType?: string }
interface ReadContents { uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }

describe('the arm view as an MCP App (resources and tool _meta over HTTP)', () => {
  let h: Harness;
  const read = async (uri: string): Promise<ReadContents[]> => {
    const reply = await h.rpc('resources/read', { uri }, { name: uri });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.result?.contents ?? [];
  };
  before(async () => {
    h = await startHarness({ approval: 'always', approver: 'console' });
  });
  after(async () => {
    await h.close();
  });

  it('links every robot tool to the App through _meta.ui.resourceUri and the legacy ui/resourceUri key', async () => {
    const reply = await h.rpc('tools/list', {});
    const tools = (reply.body.result?.tools ?? []) as Array<{ name: string; _meta?: Record<string, unknown> }>;
    assert.equal(tools.length, 9);
    for (const tool of tools) {
      assert.deepEqual(tool._meta?.ui, { resourceUri: ARM_APP_URI }, tool.name);
      assert.equal(tool._meta?.['ui/resourceUri'], ARM_APP_URI, tool.name);
    }
  });

  it('lists the App with the ext-apps mime type, and its state resource', async () => {
    const reply = await h.rpc('resources/list', {});
    const resources: ListedResource[] = reply.body.result?.resources ?? [];
    assert.deepEqual(resources.map((r) => [r.uri, r.mimeType]), [[ARM_APP_URI, 'text/html;profile=mcp-app'], [ARM_VIEW_STATE_URI, 'application/json']]);
  });

  it('reads the App as one self-contained HTML document with the script inline and no control of the arm', async () => {
    const [html, ...rest] = await read(ARM_APP_URI);
    assert.equal(rest.length, 0);
    assert.equal(html?.uri, ARM_APP_URI);
    assert.equal(html?.mimeType, 'text/html;profile=mcp-app');
    assert.deepEqual(html?._meta, { ui: { prefersBorder: true } });
    const text = html?.text ?? '';
    assert.match(text, /^<!doctype html>/);
    assert.equal((text.match(/<script type="module">/g) ?? []).length, 1, 'one inline module script');
    assert.doesNotMatch(text, /<script[^>]*\bsrc=|<link\b|<iframe\b|<form\b/, 'nothing is fetched, nothing is submitted');
    assert.doesNotMatch(text, /\/api\/estop|\/api\/approvals|data-testid="(approve|decline|estop)"/, 'view only');
    assert.match(text, /ui\/initialize/, 'the ext-apps App is bundled in');
    // Read twice: the bundle is built once and kept.
    const [again] = await read(ARM_APP_URI);
    assert.equal(again?.text, text);
  });

  it('reads the state the App draws, with the planned path of a motion waiting for the operator', async () => {
    const [idle] = await read(ARM_VIEW_STATE_URI);
    assert.equal(idle?.mimeType, 'application/json');
    const state = JSON.parse(idle?.text ?? '{}') as { planned: unknown; state: { tcp: number[]; joints: number[][]; moving: boolean }; envelope: { reachRadiusMm: number }; objects: unknown[] };
    assert.equal(state.planned, null);
    assert.equal(state.state.moving, false);
    assert.equal(state.state.tcp.length, 3);
    assert.ok(state.state.joints.length >= 6);
    assert.ok(state.envelope.reachRadiusMm > 0);
    assert.ok(state.objects.length > 0);

    const waiting = new Promise<PendingApproval>((resolve) => {
      const stop = h.robot.server.approvals.subscribe((event) => {
        if (event.type !== 'pending') return;
        stop();
        resolve(event.pending);
      });
    });
    const call = h.call('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
    const pending = await waiting;
    assert.ok(isPlannedMotion(pending.details));
    const [held] = await read(ARM_VIEW_STATE_URI);
    assert.deepEqual((JSON.parse(held?.text ?? '{}') as { planned: unknown }).planned, pending.details.path);
    await h.robot.server.approvals.decide(pending.id, { approve: false, operator: 'arm-app-test' });
    await call;
    const [after] = await read(ARM_VIEW_STATE_URI);
    assert.equal((JSON.parse(after?.text ?? '{}') as { planned: unknown }).planned, null);
  });
});
