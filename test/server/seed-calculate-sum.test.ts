/** The seed example from the issue, against the demo server that `npm start` serves. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import demo from '../../examples/demo/server.js';
import type { HttpListener } from '../../src/index.js';
import { post, rpc } from '../fixtures/servers/raw-http.js';

let listener: HttpListener;
before(async () => {
  listener = await demo.listen({ port: 0 });
});
after(() => demo.close());

const call = (name: string, args?: unknown) => rpc('tools/call', args === undefined ? { name } : { name, arguments: args });

describe('seed example: calculate_sum', () => {
  it('declares integers a and b with additionalProperties: false', () => {
    assert.deepEqual(demo.tools[0]?.inputSchema, {
      type: 'object',
      properties: { a: { type: 'integer', description: 'First addend' }, b: { type: 'integer', description: 'Second addend' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
  });

  it('{a:2,b:3} gives 5', async () => {
    const res = await post(listener.url, call('calculate_sum', { a: 2, b: 3 }));
    assert.equal(res.status, 200);
    const result = res.body?.result as Record<string, unknown>;
    assert.deepEqual(result.structuredContent, { sum: 5 });
    assert.deepEqual(result.content, [{ type: 'text', text: '{"sum":5}' }]);
    assert.equal('isError' in result, false);
  });

  it('{a:2,c:3} gives an isError result naming both the missing b and the unexpected c', async () => {
    const res = await post(listener.url, call('calculate_sum', { a: 2, c: 3 }));
    assert.equal(res.status, 200);
    const result = res.body?.result as Record<string, unknown>;
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [
      { type: 'text', text: 'Invalid arguments for tool calculate_sum:\n/: missing required property "b"\n/: unexpected property "c"' },
    ]);
    assert.equal('structuredContent' in result, false);
  });

  it('a no-argument tool declared {type:"object", additionalProperties:false} accepts {} and a call with no arguments', async () => {
    assert.deepEqual(demo.tools[1]?.inputSchema, { type: 'object', additionalProperties: false });
    for (const args of [{}, undefined]) {
      const res = await post(listener.url, call('server_time', args));
      const result = res.body?.result as { isError?: boolean; content: { text: string }[] };
      assert.equal(result.isError, undefined);
      assert.match(result.content[0]?.text ?? '', /^\d{4}-\d\d-\d\dT/);
    }
    const extra = await post(listener.url, call('server_time', { tz: 'UTC' }));
    const refused = extra.body?.result as Record<string, unknown>;
    assert.equal(refused.isError, true);
    assert.deepEqual(refused.content, [{ type: 'text', text: 'Invalid arguments for tool server_time:\n/: unexpected property "tz"' }]);
  });
});
