// One-off HTTP exchanges for verification (not for load: load comes from the separate
// autocannon process). Bounded in time, loopback only.
import { request, type Agent } from 'node:http';
import { httpHeadersFor, MCP_PATH, type JsonRpcRequest } from '../shared/mcp.js';

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly bytes: number;
}

/** POST one JSON-RPC message to `/mcp` with the 2026-07-28 headers (plus `extraHeaders`, e.g. `authorization`). */
export function postRpc(port: number, message: JsonRpcRequest, timeoutMs = 30000, agent: Agent | false = false, extraHeaders: Record<string, string> = {}): Promise<HttpAnswer> {
  const payload = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: MCP_PATH, method: 'POST', headers: { ...httpHeadersFor(message), ...extraHeaders, 'content-length': Buffer.byteLength(payload) }, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const buffer = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: buffer.toString('utf8'), bytes: buffer.length });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from 127.0.0.1:${port} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
