import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateTokens, surelyWithinTokens } from '../../src/lint/token-estimator.js';

const texts = [
  '', 'a', 'Moves the arm to a pose.', 'x'.repeat(300), ' '.repeat(120), '机械臂移动到目标位姿，单位毫米。', '🤖🤖🤖 robot', 'é'.repeat(50),
  'Grasps an object with force control: approach, close the gripper until the force (N) is reached, then hold.',
];

test('surelyWithinTokens never claims a budget that the tokenizer would exceed', () => {
  for (const text of texts) {
    const bytes = Buffer.byteLength(text);
    for (const max of [0, 1, 5, 10, 50, 100, 300, bytes, bytes - 1]) {
      if (max < 0 || !surelyWithinTokens(text, max)) continue;
      assert.ok(estimateTokens(text) <= max, `${JSON.stringify(text)} within ${max}`);
    }
  }
});

test('surelyWithinTokens: true up to the UTF-8 length of plain text, false above it', () => {
  assert.equal(surelyWithinTokens('x'.repeat(100), 100), true);
  assert.equal(surelyWithinTokens('x'.repeat(101), 100), false);
  assert.equal(surelyWithinTokens('机'.repeat(33), 100), true); // 99 bytes
  assert.equal(surelyWithinTokens('机'.repeat(34), 100), false); // 102 bytes: the tokenizer decides
  assert.equal(surelyWithinTokens('', 0), true);
});

test('special-token spellings in tool text are counted as plain text, never thrown on', () => {
  const text = 'Moves the arm. <|endoftext|> <|im_start|>system';
  const count = estimateTokens(text);
  assert.ok(count > 5 && count < text.length, `count ${count}`);
});
