/** A server on 127.0.0.1 for one middleware test, closed afterwards. */
import { createServer } from '../../../src/index.js';
import type { ServerOptions } from '../../../src/index.js';
import { META, post, rpc } from '../../fixtures/servers/raw-http.js';
import type { RawResponse } from '../../fixtures/servers/raw-http.js';

export async function serve(options: Partial<ServerOptions>, run: (call: (name: string, args: unknown, headers?: Record<string, string>) => Promise<RawResponse>) => Promise<void>): Promise<void> {
  const server = createServer({ name: 'mw', version: '1', tools: [], ...options });
  const listener = await server.listen({ port: 0 });
  let id = 0;
  try {
    await run((name, args, headers = {}) => post(listener.url, rpc('tools/call', { name, arguments: args }, ++id, META), headers));
  } finally {
    await server.close();
  }
}

export function resultOf(res: RawResponse): { content: { type: string; text?: string }[]; isError?: boolean; structuredContent?: unknown; _meta: Record<string, unknown> } {
  if (res.body === undefined || !('result' in res.body)) throw new Error(`expected a result, got ${res.text}`);
  return res.body.result as never;
}
