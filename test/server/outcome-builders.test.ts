/**
 * The two builders of the outcome table read their row: `toolError` answers only for tool-error
 * rows (anything else throws, so no caller can turn a protocol error into a tool result), and
 * `rpcError` takes the code and HTTP status from its row.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OUTCOMES, rpcError, toolError } from '../../src/server/outcomes.js';
import type { OutcomeName } from '../../src/server/outcomes.js';
import { ProtocolError } from '../../src/protocol/protocol-error.js';

type ToolErrorName = Parameters<typeof toolError>[0];
const names = Object.keys(OUTCOMES) as OutcomeName[];

describe('toolError', () => {
  it('builds the isError result for every tool-error row', () => {
    const rows = names.filter((n) => OUTCOMES[n].kind === 'tool-error');
    assert.ok(rows.length >= 8, `only ${rows.length} tool-error rows`);
    for (const name of rows) {
      assert.deepEqual(toolError(name as ToolErrorName, `text of ${name}`), { resultType: 'complete', content: [{ type: 'text', text: `text of ${name}` }], isError: true });
    }
  });

  it('refuses a row of another kind', () => {
    assert.throws(() => toolError('unknownTool' as unknown as ToolErrorName, 'x'), { name: 'TypeError', message: 'toolError: OUTCOMES row "unknownTool" is of kind rpc-error, not a tool-error row' });
    assert.throws(() => toolError('cancelled' as unknown as ToolErrorName, 'x'), { name: 'TypeError', message: 'toolError: OUTCOMES row "cancelled" is of kind no-response, not a tool-error row' });
  });

  it('refuses a name that is not in the table', () => {
    assert.throws(() => toolError('noSuchRow' as unknown as ToolErrorName, 'x'), { name: 'TypeError', message: 'toolError: OUTCOMES row "noSuchRow" is not in the table, not a tool-error row' });
  });
});

describe('rpcError', () => {
  it('takes the code and HTTP status from its row', () => {
    const error = rpcError('rateLimited', 'slow down', { data: { retryAfterMs: 5 }, headers: { 'retry-after': '1' } });
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, OUTCOMES.rateLimited.code);
    assert.equal(error.httpStatus, 429);
    assert.equal(error.message, 'slow down');
    assert.deepEqual(error.data, { retryAfterMs: 5 });
    assert.deepEqual(error.headers, { 'retry-after': '1' });
  });
});
