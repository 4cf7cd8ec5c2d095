/**
 * A small demo server (the seed example `calculate_sum`), served by `npm start` until the robot-arm
 * reference server exists: `toolwright serve examples/demo/server.ts --http 3000`.
 */
import { createServer, defineTool } from '../../src/index.js';

export const calculateSum = defineTool({
  name: 'calculate_sum',
  title: 'Calculate sum',
  description: 'Add two integers and return their sum. Use for exact integer arithmetic; both a and b are required.',
  inputSchema: {
    type: 'object',
    properties: {
      a: { type: 'integer', description: 'First addend' },
      b: { type: 'integer', description: 'Second addend' },
    },
    required: ['a', 'b'],
    additionalProperties: false,
  } as const,
  outputSchema: {
    type: 'object',
    properties: { sum: { type: 'integer' } },
    required: ['sum'],
    additionalProperties: false,
  } as const,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ a, b }) => ({ structuredContent: { sum: a + b } }),
});

export const serverTime = defineTool({
  name: 'server_time',
  description: 'Return the server clock as an ISO-8601 UTC timestamp. Takes no arguments.',
  inputSchema: { type: 'object', additionalProperties: false } as const,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: () => new Date().toISOString(),
});

export default createServer({
  name: 'toolwright-demo',
  version: '0.1.0',
  instructions: 'A demo server with exact integer addition and the server clock.',
  tools: [calculateSum, serverTime],
});
