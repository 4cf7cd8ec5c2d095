/**
 * One runner for every call: a call that becomes a task is answered at once (CreateTaskResult) and
 * its run goes on inside the same middleware, with the same stage events, so `auditLog`,
 * `resultBudget` and `tracing` see the task's real result, never its CreateTaskResult. Over real HTTP
 * on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { auditChainFiles, auditLog, createServer, defineTool, resultBudget, tracing, TRUNCATION_META_KEY, verifyHashChainLog } from '../../src/index.js';
import type { AuditEntry, Middleware, StageEvent } from '../../src/index.js';
import { META, post, rpc } from '../fixtures/servers/raw-http.js';
import { gate } from '../support/gate.js';
import { recordingTracer } from '../support/recording-tracer.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { ...META, 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } } };
const dir = mkdtempSync(join(tmpdir(), 'tw-task-mw-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('a task runs inside the middleware of the call that created it', () => {
  it('auditLog, resultBudget and tracing see the real result; the request is answered before the run ends', async () => {
    const release = gate();
    const LONG = 'lorem ipsum dolor sit amet '.repeat(200);
    const job = defineTool({
      name: 'job',
      inputSchema: { type: 'object', properties: { fail: { type: 'boolean' } }, required: ['fail'], additionalProperties: false } as const,
      task: true,
      run: async ({ fail }) => {
        await release.opened;
        return fail ? { content: [{ type: 'text', text: 'the job failed: disk full' }], isError: true } : LONG;
      },
    });
    const seen: { taskId: string | undefined; resultType: unknown }[] = [];
    const watcher: Middleware = {
      name: 'watcher',
      async handle(call, next) {
        const outcome = await next();
        seen.push({ taskId: call.taskId, resultType: outcome.kind === 'result' ? outcome.result.resultType : outcome.kind });
        return outcome;
      },
    };
    const path = join(dir, 'calls.jsonl');
    const { tracer, spans } = recordingTracer();
    const events: StageEvent[] = [];
    const server = createServer({
      name: 'task-mw', version: '1', tools: [job], logger: { error: () => {} },
      use: [auditLog({ path, fsync: 'never' }), tracing({ tracer }), watcher, resultBudget({ maxTokens: 64 })],
      onStageEvent: (event) => events.push(event),
    });
    const { url } = await server.listen({ port: 0 });
    try {
      const created = [] as string[];
      for (const [id, fail] of [[1, false], [2, true]] as const) {
        const answer = await post(url, rpc('tools/call', { name: 'job', arguments: { fail } }, id, WITH_TASKS));
        const result = answer.body?.result as { resultType?: string; taskId?: string };
        assert.equal(result.resultType, 'task', answer.text);
        created.push(result.taskId!);
      }
      // Both answered while the handlers still wait: nothing outside the task has ended yet.
      assert.equal(seen.length, 0);
      assert.equal(spans.filter((s) => s.ended).length, 0);
      release.open();
      const finals: Record<string, unknown>[] = [];
      for (const taskId of created) {
        for (let i = 0; ; i++) {
          // tasks/get is the extension's, not in the official schema the raw client checks against: plain fetch.
          const got = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tasks/get', 'mcp-name': taskId },
            body: JSON.stringify(rpc('tasks/get', { taskId }, 100 + i, WITH_TASKS)),
            signal: AbortSignal.timeout(15_000),
          }).then(async (response) => ({ text: await response.text() }));
          const task = (JSON.parse(got.text) as { result: { status?: string; result?: Record<string, unknown> } }).result;
          const status = task.status;
          if (status === 'completed') { finals.push(task.result!); break; }
          assert.ok(i < 2000 && status === 'working', got.text);
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      // resultBudget truncated the task's result (it never saw one before: only CreateTaskResult).
      const ok = finals[0]!;
      const okMeta = ok._meta as Record<string, unknown>;
      assert.ok(okMeta[TRUNCATION_META_KEY] !== undefined, JSON.stringify(ok).slice(0, 300));
      assert.ok(JSON.stringify(ok.content).length < LONG.length);
      assert.equal((finals[1]!.content as { text: string }[])[0]!.text, 'the job failed: disk full');
      // The middleware saw each task's id and its real end.
      assert.deepEqual(seen.map((s) => s.resultType), ['complete', 'complete']);
      assert.deepEqual(new Set(seen.map((s) => s.taskId)), new Set(created));
      // tracing: one span per call, ended with the task, an error status for the failed one.
      assert.deepEqual(spans.map((s) => [s.name, s.ended]), [['tools/call job', true], ['tools/call job', true]]);
      assert.deepEqual(spans.map((s) => s.attributes['error.type']).sort(), [undefined, 'tool_error'].sort());
      // Stage events: execute and output ran for each task, after `task` passed, under the creating request's id.
      for (const id of [1, 2]) {
        const stages = events.filter((e) => e.requestId === id && !e.stage.startsWith('middleware:')).map((e) => `${e.stage}:${e.outcome}`);
        assert.deepEqual(stages.slice(-4), ['task:pass', 'claim:pass', 'execute:pass', id === 1 ? 'output:respond' : 'output:tool-error']);
      }
    } finally {
      await server.close();
    }
    // auditLog recorded the real outcomes, not two 'respond' records of CreateTaskResult.
    const verdict = verifyHashChainLog(path, auditChainFiles(path));
    assert.ok(verdict.ok, verdict.problems.join('\n'));
    const records = (verdict.records as AuditEntry[]).filter((r) => r.type === 'tool_call');
    assert.deepEqual(records.map((r) => [r.request_id, r.outcome, r.detail]).sort(), [[1, 'respond', undefined], [2, 'tool-error', 'the job failed: disk full']]);
  });
});
