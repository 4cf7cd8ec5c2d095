/**
 * The audit middleware writes each record's JSON itself (its hot path): for any tool name, subject,
 * request id, outcome, detail and arguments, the line must be exactly what serialising the stored
 * record gives, with the documented key order, and the chain must verify. Unkeyed logs (key:
 * false), so the file holds exactly the calls' records (a keyed log starts with chain_keyed).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { openHashChainLog, ProtocolError, verifyHashChainLog } from '../../../src/index.js';
import { auditLog } from '../../../src/server/middleware/audit/index.js';
import type { CallOutcome, StoredHashChainRecord, ToolCall } from '../../../src/index.js';
import { createMemoryStore } from '../../../src/server/store/memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-audit-text-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Any UTF-16 text: quotes, backslashes, controls, U+2028, lone surrogates, long and short.
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 90 }), fc.constantFrom('', 'calculate_sum', 'a"b', 'back\\slash', '\u2028', '\ud800', 'x'.repeat(70)));
const outcome: fc.Arbitrary<CallOutcome> = fc.oneof(
  fc.constant<CallOutcome>({ kind: 'result', outcome: 'respond', result: { content: [{ type: 'text', text: 'ok' }] } }),
  text.map((detail): CallOutcome => ({ kind: 'result', outcome: 'tool-error', result: { content: [{ type: 'text', text: detail }], isError: true } })),
  fc.tuple(fc.integer({ min: -33000, max: -32000 }), text).map(([code, message]): CallOutcome => ({ kind: 'error', error: new ProtocolError(code, message) })),
  fc.constant<CallOutcome>({ kind: 'cancelled' }),
);

/** A console call (transport `console`) when `operator` is given, else stdio. */
function callOf(tool: string, subject: string, requestId: string | number, args: Record<string, unknown>, operator?: string): ToolCall {
  return {
    tool: { name: tool, descriptor: { name: tool, inputSchema: { type: 'object' } } },
    arguments: args,
    ctx: undefined,
    auth: subject === '' ? undefined : { subject, scopes: [] },
    subject,
    requestId,
    taskId: undefined,
    transport: operator === undefined ? 'stdio' : 'console',
    operator,
    requestMeta: {},
    store: createMemoryStore(),
    note() {},
    report() {},
  };
}

describe('auditLog record text', () => {
  it('is the JSON of the stored record, key for key, for any input; the chain verifies', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ tool: text, subject: text, id: fc.oneof(fc.integer(), text), args: fc.dictionary(text, fc.jsonValue(), { maxKeys: 4 }), outcome, operator: fc.option(text, { nil: undefined }) }), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (calls, includeArguments) => {
          const path = join(dir, `run-${run++}.jsonl`);
          const audit = auditLog({ path, key: false, fsync: 'never', includeArguments });
          const stored: StoredHashChainRecord[] = [];
          audit.log.onAppend((record) => stored.push(record));
          for (const c of calls) await audit.handle(callOf(c.tool, c.subject, c.id, c.args, c.operator), () => Promise.resolve(c.outcome));
          audit.close();
          const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
          assert.equal(lines.length, calls.length);
          lines.forEach((line, i) => {
            assert.equal(line, JSON.stringify(stored[i]), 'the line is the stored record serialised');
            const c = calls[i]!;
            const record = JSON.parse(line) as Record<string, unknown>;
            const expectedKeys = ['seq', 'time', 'prev', 'type', 'tool', 'subject', 'request_id', 'transport'];
            if (c.operator !== undefined) expectedKeys.push('operator');
            expectedKeys.push('args_sha256');
            if (includeArguments) expectedKeys.push('arguments');
            expectedKeys.push('outcome');
            if (c.outcome.kind === 'error') expectedKeys.push('code');
            if (c.outcome.kind === 'error' || (c.outcome.kind === 'result' && c.outcome.outcome === 'tool-error')) expectedKeys.push('detail');
            expectedKeys.push('duration_ms');
            assert.deepEqual(Object.keys(record), expectedKeys);
            assert.equal(record.tool, JSON.parse(JSON.stringify(c.tool)));
            assert.equal(record.subject, JSON.parse(JSON.stringify(c.subject)));
            assert.equal(record.request_id, JSON.parse(JSON.stringify(c.id)));
            assert.deepEqual([record.transport, record.operator], c.operator === undefined ? ['stdio', undefined] : ['console', JSON.parse(JSON.stringify(c.operator))]);
            if (includeArguments) assert.deepEqual(record.arguments, JSON.parse(JSON.stringify(c.args)));
          });
          const verdict = verifyHashChainLog(path);
          assert.ok(verdict.ok, verdict.problems.join('\n'));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('without a listener, builds no record object and writes the same text', async () => {
    const path = join(dir, 'no-listener.jsonl');
    const audit = auditLog({ path, key: false, fsync: 'every-entry', includeArguments: true });
    const outcomeError: CallOutcome = { kind: 'error', error: new ProtocolError(-32602, 'Invalid "n": \u2028 not allowed') };
    await audit.handle(callOf('count', 'alice "a"', 'req-1', { n: 'x', nested: { z: 1, a: [true, null] } }), () => Promise.resolve(outcomeError));
    audit.close();
    const record = JSON.parse(readFileSync(path, 'utf8').trimEnd()) as Record<string, unknown>;
    assert.deepEqual(
      { ...record, time: 'T', duration_ms: 0 },
      { seq: 1, time: 'T', prev: '', type: 'tool_call', tool: 'count', subject: 'alice "a"', request_id: 'req-1', transport: 'stdio', args_sha256: record.args_sha256, arguments: { n: 'x', nested: { z: 1, a: [true, null] } }, outcome: 'error', code: -32602, detail: 'Invalid "n": \u2028 not allowed', duration_ms: 0 },
    );
    assert.match(String(record.args_sha256), /^[A-Za-z0-9_-]{43}$/);
  });

  it('appendSerialized refuses members that do not start with "type" (a brace included), and writes nothing', () => {
    const path = join(dir, 'refused.jsonl');
    const log = openHashChainLog(path, { fsync: 'every-entry' });
    assert.throws(() => log.appendSerialized('"seq":9,"type":"x"}', () => ({ type: 'x' })), { name: 'TypeError', message: 'hash-chain log: serialised members start with "type" (the record\'s JSON without its opening brace)' });
    assert.throws(() => log.appendSerialized('{"type":"x"}', () => ({ type: 'x' })), { name: 'TypeError', message: 'hash-chain log: serialised members start with "type" (the record\'s JSON without its opening brace)' });
    assert.equal(log.lastSeq, 0);
    log.close();
    assert.equal(readFileSync(path, 'utf8'), '');
  });

  it('a tool-error block whose text is not a string (null, an array) gives no detail; the record is still written', async () => {
    const path = join(dir, 'odd-detail.jsonl');
    const audit = auditLog({ path, key: false, fsync: 'every-entry' });
    const odd = (text: unknown): CallOutcome => ({ kind: 'result', outcome: 'tool-error', result: { content: [{ type: 'text', text }], isError: true } as never });
    const stored: StoredHashChainRecord[] = [];
    audit.log.onAppend((record) => stored.push(record));
    await audit.handle({ ...callOf('odd', '', 1, {}), transport: 'http' }, () => Promise.resolve(odd(null)));
    await audit.handle({ ...callOf('odd', '', 2, {}), transport: 'http' }, () => Promise.resolve(odd(['ok'])));
    audit.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 2);
    lines.forEach((line, i) => {
      assert.equal(line, JSON.stringify(stored[i]));
      const record = JSON.parse(line) as Record<string, unknown>;
      assert.equal(record.outcome, 'tool-error');
      assert.equal(record.transport, 'http');
      assert.equal(Object.hasOwn(record, 'detail'), false);
    });
    assert.ok(verifyHashChainLog(path).ok);
  });

  it('a record over maxRecordBytes is cut through the serialised path too: marked, equal to what listeners get, the chain intact', async () => {
    const path = join(dir, 'cut.jsonl');
    const audit = auditLog({ path, key: false, fsync: 'never', includeArguments: true, maxRecordBytes: 4096 });
    const stored: StoredHashChainRecord[] = [];
    audit.log.onAppend((record) => stored.push(record));
    const ok: CallOutcome = { kind: 'result', outcome: 'respond', result: { content: [] } };
    await audit.handle(callOf('big', 'bob', 7, { blob: 'x'.repeat(20_000) }), () => Promise.resolve(ok));
    await audit.handle(callOf('small', 'bob', 8, { n: 1 }), () => Promise.resolve(ok));
    audit.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    assert.ok(Buffer.byteLength(lines[0]!) <= 4096, `${Buffer.byteLength(lines[0]!)} bytes`);
    const cut = JSON.parse(lines[0]!) as Record<string, unknown>;
    const marker = cut.record_truncated as { original_bytes: number; limit_bytes: number };
    assert.deepEqual(Object.keys(marker), ['original_bytes', 'limit_bytes']);
    assert.equal(marker.limit_bytes, 4096);
    assert.ok(marker.original_bytes > 20_000, `original_bytes ${marker.original_bytes}`);
    assert.equal((cut.arguments as { truncated?: unknown }).truncated, true);
    assert.equal(cut.tool, 'big');
    assert.equal(lines[0], JSON.stringify(stored[0]));
    assert.equal(lines[1], JSON.stringify(stored[1]));
    assert.deepEqual((JSON.parse(lines[1]!) as { arguments: unknown }).arguments, { n: 1 });
    assert.ok(verifyHashChainLog(path).ok);
  });
});
