// The message nesting bound: parseMessageJson agrees with JSON.parse on every message up to
// MAX_MESSAGE_DEPTH levels, refuses one level more without parsing it (naming the id wherever the
// message puts it), counts only structure (brackets inside strings, escaped quotes included, do not
// count), and leaves text that is not JSON to JSON.parse's own error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_MESSAGE_DEPTH, MessageTooDeepError, parseMessageJson } from '../../src/protocol/message-json.js';

/** `levels` nested objects `{"a":...}` around 1. */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** A tools/call whose message nests `levels` levels in all (the message and params objects are 2 of them). */
const call = (levels: number, idFirst = true): string =>
  idFirst
    ? `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":${nested(levels - 2)}}}`
    : `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":${nested(levels - 2)}},"id":"late"}`;

function refusal(text: string): MessageTooDeepError {
  try {
    parseMessageJson(text);
  } catch (error) {
    assert.ok(error instanceof MessageTooDeepError, String(error));
    return error;
  }
  assert.fail('the message was parsed');
}

describe('parseMessageJson: the message nesting bound', () => {
  it(`reads a message of exactly ${MAX_MESSAGE_DEPTH} levels as JSON.parse does, and refuses ${MAX_MESSAGE_DEPTH + 1} with the id`, () => {
    assert.equal(MAX_MESSAGE_DEPTH, 1_100);
    const atBound = call(MAX_MESSAGE_DEPTH);
    assert.deepEqual(parseMessageJson(atBound), JSON.parse(atBound));
    const over = refusal(call(MAX_MESSAGE_DEPTH + 1));
    assert.equal(over.id, 7);
    assert.equal(over.message, 'the message nests objects and arrays deeper than 1100 levels; nothing of it was read or run');
  });

  it('finds the id after the too-deep part too, and names none when the id is missing or invalid', () => {
    assert.equal(refusal(call(174_000, false)).id, 'late');
    assert.equal(refusal(`{"jsonrpc":"2.0","method":"x","params":${nested(2_000)}}`).id, undefined);
    assert.equal(refusal(`{"jsonrpc":"2.0","id":1.5,"method":"x","params":${nested(2_000)}}`).id, undefined);
    assert.equal(refusal(`{"jsonrpc":"2.0","id":[1],"method":"x","params":${nested(2_000)}}`).id, undefined);
    // A deep batch (an array at the top) has no id of its own.
    assert.equal(refusal(`${'['.repeat(100_000)}${']'.repeat(100_000)}`).id, undefined);
    // Arrays count as objects do, and so do mixed levels.
    assert.equal(refusal(`{"id":"m","params":${'[{"a":'.repeat(600)}0${'}]'.repeat(600)}}`).id, 'm');
  });

  it('brackets inside strings do not count, escaped quotes and backslashes included', () => {
    const brackets = '{'.repeat(5_000) + '['.repeat(5_000);
    for (const text of [
      `{"id":1,"s":${JSON.stringify(brackets)}}`,
      `{"id":1,"s":${JSON.stringify(`\\"${brackets}\\\\`)},"t":"\\\\"}`,
      `{"id":1,"s":"\\\\\\"${brackets}"}`,
    ]) {
      assert.deepEqual(parseMessageJson(text), JSON.parse(text));
    }
    // A quote escaped by an odd run of backslashes does not end the string; the brackets after it are text.
    assert.deepEqual(parseMessageJson(`{"s":"\\\\\\"${'['.repeat(2_000)}"}`), { s: `\\"${'['.repeat(2_000)}` });
  });

  it('text that is not JSON gets JSON.parse\'s SyntaxError, deep or not', () => {
    for (const text of ['', '{"a":', `{"s":"${'{'.repeat(2_000)}`, `${'}'.repeat(2_000)}${'{'.repeat(2_000)}`]) {
      assert.throws(() => parseMessageJson(text), SyntaxError, JSON.stringify(text.slice(0, 40)));
    }
    // Broken and deep: refused by the bound, which is checked first (either answer refuses it).
    assert.equal(refusal(`{"id":2,"p":${'['.repeat(2_000)}oops`).id, 2);
    assert.equal(refusal(`{"a":01${'['.repeat(2_000)}`).id, undefined);
  });

  it('property: within the bound, the same value as JSON.parse; past it, refused', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: MAX_MESSAGE_DEPTH + 40 }), fc.boolean(), (value, wrap, asArray) => {
        const inner = JSON.stringify(value);
        const text = asArray ? `${'['.repeat(wrap)}${inner}${']'.repeat(wrap)}` : `${'{"k":'.repeat(wrap)}${inner}${'}'.repeat(wrap)}`;
        const depth = wrap + depthOf(value);
        if (depth <= MAX_MESSAGE_DEPTH) assert.deepEqual(parseMessageJson(text), JSON.parse(text));
        else assert.ok(refusal(text) instanceof MessageTooDeepError);
      }),
      { numRuns: 300 },
    );
  });
});

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return 1 + deepest;
}
