/**
 * The tool app every deploy target serves (docs/deploy.md): two small tools behind the web-standard
 * `server.fetch`. Each runtime's entry (worker.ts, deno.ts, bun.ts) only reads its environment and
 * hands requests here; test/deploy/deploy-targets.test.ts drives all three with real clients.
 */
import { createServer, defineTool } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';

export const calculateSum = defineTool({
  name: 'calculate_sum',
  description: 'Add two integers and return their sum. Both a and b are required.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
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

export const echoText = defineTool({
  name: 'echo_text',
  description: 'Return the given text unchanged, to check that a deployment answers.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', maxLength: 200 } },
    required: ['text'],
    additionalProperties: false,
  } as const,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ text }) => text,
});

/** Where the runtime says it runs, shown as the server's version suffix so a test can tell the targets apart. */
export interface ToolAppEnv {
  /** The `requestState` HMAC key (16+ bytes), from the deployment's secret store; see docs/deploy.md. */
  stateSecret: string | undefined;
  runtime: string;
}

export function createToolApp(env: ToolAppEnv): McpServer {
  // A deployment never falls back to a random per-isolate key: a request sealed by one isolate
  // would be refused by the next, and nobody would know why. Refuse to start instead.
  if (env.stateSecret === undefined || env.stateSecret.length < 16) {
    throw new Error('TOOLWRIGHT_STATE_SECRET is not set (16+ bytes): set it as the deployment\'s secret (docs/deploy.md)');
  }
  return createServer({
    name: 'toolwright-deploy-example',
    version: `0.1.0+${env.runtime}`,
    tools: [calculateSum, echoText],
    requestStateSecret: env.stateSecret,
  });
}
