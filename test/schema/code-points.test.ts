/** The one code-point counter (src/schema/code-points.ts): surrogate pairs count once, lone surrogates once, and the bounded count stops early. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countCodePoints, exceedsCodePoints } from '../../src/schema/code-points.js';

describe('code points', () => {
  it('counts a surrogate pair as one and a lone surrogate as one', () => {
    assert.equal(countCodePoints(''), 0);
    assert.equal(countCodePoints('abc'), 3);
    assert.equal(countCodePoints('a😀b'), 3);
    assert.equal(countCodePoints('\ud83d'), 1, 'a lone high surrogate at the end');
    assert.equal(countCodePoints('\ude00x'), 2, 'a lone low surrogate');
    assert.equal(countCodePoints('\ud83dx'), 2, 'a high surrogate not followed by a low one');
  });

  it('stops counting once the count passes the bound', () => {
    assert.equal(countCodePoints('abcdef', 2), 3);
    assert.equal(countCodePoints('ab', 2), 2);
  });

  it('exceedsCodePoints answers at the boundary, counting pairs once', () => {
    assert.equal(exceedsCodePoints('😀😀', 2), false, 'four UTF-16 units, two code points');
    assert.equal(exceedsCodePoints('😀😀x', 2), true);
    assert.equal(exceedsCodePoints('ab', 2), false);
    assert.equal(exceedsCodePoints('abc', 2), true);
    assert.equal(exceedsCodePoints('abcde', 2), true, 'more than twice as many units as the bound');
  });
});
