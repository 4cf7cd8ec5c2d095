/** The README's server example, compiled and run as written (port 0 and a temp audit file aside). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { z } from 'zod';
import { auditLog, createServer, defineTool, errorResult, ErrorCode, ProtocolError, rateLimit, resultBudget } from '../../src/index.js';

it('the README example serves, answers and closes', async () => {
  const forecast = defineTool({
    name: 'get_forecast',
    description: 'Daily weather forecast for a city, up to 7 days ahead.',
    inputSchema: z.object({ city: z.string().min(2), days: z.number().int().min(1).max(7) }).strict(),
    outputSchema: z.object({ city: z.string(), highs: z.array(z.number()) }),
    use: [resultBudget({ maxTokens: 2000 })], // this tool's own middleware
    run: async ({ city, days }, ctx) => {
      ctx.log('info', `forecast for ${city}`); // sent only if the client asked for logs
      ctx.progress(0, days); // sent only if the request carried a progressToken
      if (city === 'Atlantis') return errorResult(`No weather data for ${city}.`); // the model reads it and may retry
      if (ctx.signal.aborted) throw new ProtocolError(ErrorCode.InternalError, 'cancelled');
      const highs = Array.from({ length: days }, (_, i) => 20 + i);
      return { structuredContent: { city, highs } }; // typed by outputSchema
    },
  });
  const server = createServer({
    name: 'weather',
    version: '1.0.0',
    tools: [forecast],
    use: [rateLimit({ capacity: 20, refillPerSecond: 2 }), auditLog({ path: join(mkdtempSync(join(tmpdir(), 'tw-readme-')), 'calls.jsonl') })], // around every call
  });
  const http = await server.listen({ port: 0 }); // Streamable HTTP on 127.0.0.1:3000/mcp
  // server.stdio();                                 // or newline-delimited JSON-RPC on stdin/stdout
  // export default { fetch: (request: Request) => server.fetch(request) }; // or any fetch runtime
  const res = await fetch(http.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_forecast' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_forecast', arguments: { city: 'Oslo', days: 2 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
  });
  const body = (await res.json()) as { result: { structuredContent: unknown } };
  assert.deepEqual(body.result.structuredContent, { city: 'Oslo', highs: [20, 21] });
  await server.close();
});
