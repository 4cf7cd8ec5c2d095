// The key hostile-input result: one small unauthenticated call must not stop the robot hearing
// stop_arm. A 99 KB tools/call with 10,000 unknown argument keys (13.4 s of event-loop time before
// the schema engine was bounded) is in flight while stop_arm is sent during a motion: both are
// answered, the flood with a bounded invalid-arguments error. Time only as the test timeout.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../../packages/robot-arm/test/support/robot-harness.js';
import { until } from '../support/until.js';

const FAR = { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 };
const flood = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`unknown_key_${String(i).padStart(5, '0')}`, i]));

describe('stop_arm under hostile load', () => {
  it('stop_arm during a running motion answers while a 99 KB 10,000-unknown-key call is in flight', { timeout: 60_000 }, async () => {
    // approval off: the motion runs as an approved one would; approval itself has its own tests.
    const h = await startHarness({ approval: 'off' });
    try {
      assert.ok(JSON.stringify(flood).length > 99_000);
      const move = h.call('move_arm_to_pose', FAR);
      await until(() => h.robot.driver.sim.state === 'moving', 'the motion starting', { timeoutMs: 30_000, intervalMs: 5 });
      const flooding = h.call('move_arm_to_pose', { ...FAR, ...flood });
      const stop = await h.call('stop_arm', {});
      assert.equal(stop.status, 200);
      assert.equal(stop.body.result?.structuredContent?.was_moving, true);
      const moved = await move;
      assert.equal(moved.body.result?.structuredContent?.status, 'stopped');
      const refused = await flooding;
      assert.equal(refused.status, 200);
      const answer = JSON.stringify(refused.body);
      assert.ok(answer.length < 8_000, `flood answer of ${answer.length} bytes`);
      const text = JSON.stringify(refused.body.error ?? refused.body.result);
      assert.match(text, /unexpected property \\"unknown_key_00000\\"/);
      assert.match(text, /and 99\d\d more problems not listed \(only the first 20 are reported\)/);
    } finally {
      await h.close();
    }
  });

  it('a 174,000-level-deep arguments object is refused unread (-32600 naming the nesting bound, with its id), not -32603', { timeout: 60_000 }, async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const reply = await h.rpc('tools/call', { name: 'get_device_status', arguments: {} }, {
        name: 'get_device_status',
        rewrite: (json) => json.replace('"arguments":{}', `"arguments":${'{"a":'.repeat(174_000)}1${'}'.repeat(174_000)}`),
      });
      const text = JSON.stringify(reply.body);
      assert.ok(text.length < 4_000, `answer of ${text.length} bytes`);
      assert.equal(reply.body.error?.code, -32600, text);
      assert.equal(reply.body.error?.message, 'Invalid request: the message nests objects and arrays deeper than 1100 levels; nothing of it was read or run');
      assert.equal(typeof (reply.body as { id?: unknown }).id, 'number', 'the answer names the request id');
    } finally {
      await h.close();
    }
  });
});
