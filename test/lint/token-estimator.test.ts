import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTextTokens } from '../../src/host/token-estimate.js';
import { surelyWithinTokens } from '../../src/lint/token-estimator.js';

const texts = [
  '', 'a', 'Moves the arm to a pose.', 'x'.repeat(300), ' '.repeat(120), '机械臂移动到目标位姿，单位毫米。', '🤖🤖🤖 robot', 'é'.repeat(50),
  'Grasps an object with force control: approach, close the gripper until the force (N) is reached, then hold.',
];

test('surelyWithinTokens never claims a budget that the tokenizer would exceed', () => {
  let claims = 0;
  for (const text of texts) {
    const bytes = Buffer.byteLength(text);
    // At its own UTF-8 length a text without surrogate pairs is always claimed (the bound is exact
    // there); with them the bound counts 6 bytes for 4, so it is not. This makes the loop below assert.
    assert.equal(surelyWithinTokens(text, bytes), !/[\uD800-\uDFFF]/.test(text), JSON.stringify(text));
    for (const max of [0, 1, 5, 10, 50, 100, 300, bytes, bytes - 1]) {
      if (max < 0 || !surelyWithinTokens(text, max)) continue;
      claims++;
      assert.ok(countTextTokens(text) <= max, `${JSON.stringify(text)} within ${max}`);
    }
  }
  assert.ok(claims >= texts.length - 1, `only ${claims} claims checked`);
});

test('surelyWithinTokens: true up to the UTF-8 length of plain text, false above it', () => {
  assert.equal(surelyWithinTokens('x'.repeat(100), 100), true);
  assert.equal(surelyWithinTokens('x'.repeat(101), 100), false);
  assert.equal(surelyWithinTokens('机'.repeat(33), 100), true); // 99 bytes
  assert.equal(surelyWithinTokens('机'.repeat(34), 100), false); // 102 bytes: the tokenizer decides
  assert.equal(surelyWithinTokens('', 0), true);
});

test('special-token spellings in tool text are counted as plain text, never thrown on', () => {
  // As special tokens each spelling would be one token; as text, '<|', the word and '|>' are at least three.
  for (const special of ['<|endoftext|>', '<|im_start|>', '<|endofprompt|>']) {
    const count = countTextTokens(special);
    assert.ok(count >= 3 && count <= special.length, `${special}: ${count} tokens`);
  }
  const text = 'Moves the arm. <|endoftext|> <|im_start|>system';
  // Inside a description they are counted too, not dropped.
  assert.ok(countTextTokens(text) >= countTextTokens('Moves the arm.  system') + 6, `${countTextTokens(text)} tokens`);
});
