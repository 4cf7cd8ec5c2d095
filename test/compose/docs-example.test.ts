/** docs/compose.md's example (examples/compose/front-server.ts), served on loopback and called with the project's client. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { connect } from '../../src/client/index.js';
import { lintTools } from '../../src/lint/index.js';
import { inventory, server } from '../../examples/compose/front-server.js';

it('the compose example lists the transformed, prefixed tools and calls through to the inventory', async () => {
  const listener = await server.listen({ port: 0 });
  const client = connect(listener.url, { onWarning: () => {} });
  try {
    const tools = (await client.listTools()).tools;
    assert.deepEqual(tools.map((t) => t.name), ['ping', 'inv__lookup', 'inv__restock']);
    const lookup = tools.find((t) => t.name === 'inv__lookup')!;
    assert.equal(lookup.description, 'Find stock for a SKU in the Berlin warehouse.');
    assert.deepEqual(Object.keys((lookup.inputSchema as { properties: object }).properties), ['sku', 'limit']);
    assert.deepEqual((await client.callTool('inv__lookup', { sku: 'A1', limit: 5 })).content, [{ type: 'text', text: 'A1@berlin: 12 (limit 5)' }]);
  } finally {
    await client.close();
    await listener.close();
    await server.close();
    await inventory.close();
  }
});

it('the linter reads the transformed, prefixed definitions (the hidden argument is gone, the new description is judged)', () => {
  const result = lintTools(server.listToolDescriptors());
  assert.equal(result.toolCount, 3);
  const onLookup = result.findings.filter((f) => f.tool === 'inv__lookup');
  assert.ok(onLookup.length > 0, 'findings are reported under the prefixed name');
  assert.deepEqual(result.findings.filter((f) => f.tool === 'lookup' || f.tool === 'inv__purge'), []);
  assert.deepEqual(onLookup.filter((f) => f.pointer.includes('warehouse')), []);
  assert.ok(onLookup.some((f) => f.pointer === '/inputSchema/properties/limit'), 'the narrowed argument is linted');
});
