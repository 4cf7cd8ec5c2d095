/** auditLog: one hash-chained JSONL line per call and outcome, refusals included; tampering is detected. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { auditLog, defineTool, verifyAuditLog } from '../../../src/index.js';
import { serve } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-audit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const COUNT = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } as const;

describe('auditLog', () => {
  it('records every call with its outcome, including refusals, chained; a restarted log continues the chain', async () => {
    const path = join(dir, 'calls.jsonl');
    const count = defineTool({ name: 'count', inputSchema: COUNT, run: ({ n }) => (n < 0 ? { content: [{ type: 'text', text: 'negative' }], isError: true } : `n=${n}`) });
    for (const fsync of ['every-entry', 'never'] as const) {
      const audit = auditLog({ path, fsync });
      await serve({ tools: [count], use: [audit] }, async (call) => {
        await call('count', { n: 1 });
        await call('count', { n: 'x' });
        await call('count', { n: -1 });
      });
      audit.close();
    }
    const verdict = verifyAuditLog(path);
    assert.ok(verdict.ok, JSON.stringify(verdict));
    assert.deepEqual(verdict.entries.map((e) => [e.seq, e.tool, e.outcome]), [
      [1, 'count', 'respond'], [2, 'count', 'tool-error'], [3, 'count', 'tool-error'],
      [4, 'count', 'respond'], [5, 'count', 'tool-error'], [6, 'count', 'tool-error'],
    ]);
    assert.match(verdict.entries[1]!.detail ?? '', /^Invalid arguments for tool count:/);
    assert.equal(verdict.entries[0]!.arguments, undefined, 'arguments are not recorded by default');
    assert.match(verdict.entries[0]!.args_sha256, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(verdict.entries[0]!.transport, 'http');
  });

  it('detects an edited, removed or reordered line, and refuses to extend a broken log', async () => {
    const path = join(dir, 'tamper.jsonl');
    const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => 'pong' });
    const audit = auditLog({ path, fsync: 'never', includeArguments: true });
    await serve({ tools: [ping], use: [audit] }, async (call) => {
      for (let i = 0; i < 3; i++) await call('ping', { i });
    });
    audit.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    assert.deepEqual((JSON.parse(lines[2]!) as { arguments: unknown }).arguments, { i: 2 });
    const edited = [...lines];
    edited[1] = edited[1]!.replace('"respond"', '"tool-error"');
    const cases: [string[], RegExp][] = [
      [edited, /hash does not match the line/],
      [[lines[0]!, lines[2]!], /seq is 3, expected 2/],
      [[lines[1]!, lines[0]!, lines[2]!], /seq is 2, expected 1/],
    ];
    for (const [content, reason] of cases) {
      writeFileSync(path, `${content.join('\n')}\n`);
      const verdict = verifyAuditLog(path);
      assert.equal(verdict.ok, false);
      if (!verdict.ok) assert.match(verdict.reason, reason);
    }
    writeFileSync(path, `${edited.join('\n')}\n`);
    assert.throws(() => auditLog({ path }), /line 2: hash does not match the line; refusing to extend a broken chain/);
    assert.throws(() => auditLog({ path: join(dir, 'x.jsonl'), fsync: 'sometimes' as never }), /fsync must be "every-entry" or "never"/);
  });
});
