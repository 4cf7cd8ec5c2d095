/**
 * The AI SDK's stdio fallback, made deterministic. `@ai-sdk/mcp` 2.0.99 sends `server/discover`
 * and waits 1,000 ms counted from spawn; a server still starting (tsx, a loaded machine) has not
 * answered by then, so the client sends `initialize` on the same process, as the spec's "silence
 * ⇒ legacy" rule tells it to. Both lines are then already in the server's stdin when it reads
 * them. Here they are written at once, byte for byte what the AI SDK sends, so the outcome does not
 * depend on how fast the machine is: the late discover answer is harmless, and the `initialize`
 * must be answered with a 2025-11-25 InitializeResult, after which the legacy session works.
 *
 * This is the regression test of the era rule that once refused such an `initialize` (a
 * `server/discover` alone no longer decides a stdio process's era).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { it } from 'node:test';
import { ROOT } from './matrix.js';

const DISCOVER = { method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'ai-sdk-mcp-client', version: '1.0.0' } } }, jsonrpc: '2.0', id: 0 };
const INITIALIZE = { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ai-sdk-mcp-client', version: '1.0.0' } }, jsonrpc: '2.0', id: 1 };
const INITIALIZED = { method: 'notifications/initialized', jsonrpc: '2.0' };
const CALL = { method: 'tools/call', params: { name: 'calculate_sum', arguments: { a: 2, b: 3 } }, jsonrpc: '2.0', id: 2 };

it('a stdio server answers initialize sent after an unanswered server/discover probe (the AI SDK fallback)', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'serve', join(ROOT, 'examples/demo/server.ts'), '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
  const answers = new Map<number, { result?: Record<string, unknown>; error?: { code: number; message: string } }>();
  const waiting = new Map<number, () => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown>; error?: { code: number; message: string } };
    if (typeof message.id !== 'number') return;
    answers.set(message.id, message);
    waiting.get(message.id)?.();
  });
  const answerTo = (id: number) => new Promise<void>((resolve, reject) => {
    if (answers.has(id)) return resolve();
    const timer = setTimeout(() => reject(new Error(`no answer to id ${id} within 30 s`)), 30_000);
    waiting.set(id, () => {
      clearTimeout(timer);
      resolve();
    });
  });
  try {
    child.stdin.write(`${JSON.stringify(DISCOVER)}\n${JSON.stringify(INITIALIZE)}\n`);
    await Promise.all([answerTo(0), answerTo(1)]);
    assert.deepEqual(answers.get(1)?.error, undefined, 'initialize after an unanswered discover probe was refused');
    assert.equal(answers.get(1)?.result?.protocolVersion, '2025-11-25');
    child.stdin.write(`${JSON.stringify(INITIALIZED)}\n${JSON.stringify(CALL)}\n`);
    await answerTo(2);
    assert.deepEqual(answers.get(2)?.result?.structuredContent, { sum: 5 });
  } finally {
    child.kill('SIGKILL');
  }
});
