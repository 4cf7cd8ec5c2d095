/**
 * The examples of docs/compose.md, compiled by the typecheck and run by test/compose/docs-example.test.ts:
 * an inventory server mounted under `inv` behind a front server that adds its own policies, with
 * transforms reshaping the mounted tools. `toolwright serve examples/compose/front-server.ts --http 3000`.
 */
import { createServer, defineTool, rateLimit } from '../../src/index.js';
import { describe, filterTools, hideArgument, narrowArgument, requireApproval, transformTools } from '../../src/compose/index.js';

// A server of its own (it could be served alone too).
const lookup = defineTool({
  name: 'lookup',
  description: 'Find stock for a SKU.',
  annotations: { readOnlyHint: true },
  inputSchema: {
    type: 'object',
    properties: { sku: { type: 'string' }, warehouse: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 500 } },
    required: ['sku', 'warehouse'],
    additionalProperties: false,
  } as const,
  run: ({ sku, warehouse, limit }) => `${sku}@${warehouse}: 12 (limit ${limit ?? 'none'})`,
});
const restock = defineTool({
  name: 'restock',
  annotations: { destructiveHint: false },
  inputSchema: { type: 'object', properties: { sku: { type: 'string' }, count: { type: 'integer', minimum: 1 } }, required: ['sku', 'count'] } as const,
  run: ({ sku, count }) => `ordered ${count} x ${sku}`,
});
const purge = defineTool({ name: 'purge', annotations: { destructiveHint: true }, inputSchema: { type: 'object' }, run: () => 'purged' });

export const inventory = createServer({ name: 'inventory', version: '1.0.0', tools: [lookup, restock, purge] });

// The front: its own tool, the inventory under `inv__`, and its policies around every call.
const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => 'pong' });

export const server = createServer({
  name: 'front',
  version: '1.0.0',
  tools: [ping],
  use: [rateLimit({ capacity: 20, refillPerSecond: 5 })], // applies to inv__* too
  mount: [{
    prefix: 'inv',
    server: inventory,
    // Names here are the inventory's own; the prefix is put on afterwards.
    transform: (tools) => transformTools(tools, [
      filterTools({ destructiveHint: false }), // purge is not served at all
      hideArgument('lookup', 'warehouse', 'berlin'), // never listed, always "berlin" (and audited)
      narrowArgument('lookup', 'limit', { maximum: 50 }), // a tighter bound than the inventory's 500
      describe('lookup', { description: 'Find stock for a SKU in the Berlin warehouse.' }),
      requireApproval('restock', { message: 'Order more stock?', approver: 'operator' }),
    ]),
  }],
});

export default server;
