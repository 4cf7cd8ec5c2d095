/** src/text/similar-names.ts: the one edit distance, "did you mean" and the diff's rename test. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { closestWord, editDistance, nameWords, namesAlike } from '../../src/text/similar-names.js';

it('editDistance counts insertions, deletions, substitutions and adjacent swaps as 1', () => {
  assert.equal(editDistance('', ''), 0);
  assert.equal(editDistance('port', 'port'), 0);
  assert.equal(editDistance('prot', 'port'), 1);
  assert.equal(editDistance('provider', 'prvider'), 1);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('', 'abc'), 3);
});

it('closestWord picks the nearest within a third of the length (at least 1), else nothing', () => {
  assert.equal(closestWord('lnit', ['lint', 'call', 'diff']), 'lint');
  assert.equal(closestWord('serv', ['serve', 'eval']), 'serve');
  assert.equal(closestWord('SERVE', ['serve']), 'serve');
  assert.equal(closestWord('deploy', ['lint', 'call', 'diff']), undefined);
  assert.equal(closestWord('x', []), undefined);
});

it('nameWords splits at separators and camelCase humps', () => {
  assert.deepEqual(nameWords('getWeather'), ['get', 'weather']);
  assert.deepEqual(nameWords('repos/get-content'), ['repos', 'get', 'content']);
  assert.deepEqual(nameWords('move_arm.to_pose'), ['move', 'arm', 'to', 'pose']);
});

it('namesAlike: a shared word of 4+ letters or a small edit; unrelated names are not alike', () => {
  assert.equal(namesAlike('get_weather', 'fetch_weather'), true);
  assert.equal(namesAlike('getWeather', 'get_weather'), true);
  assert.equal(namesAlike('move_arm', 'move_arms'), true);
  assert.equal(namesAlike('list_files', 'get_status'), false);
  assert.equal(namesAlike('get_time', 'get_date'), false, 'sharing only "get" (a short verb) is not enough');
  assert.equal(namesAlike('ping', 'stop_arm'), false);
  assert.equal(namesAlike('move_arm', 'stop_arm'), false);
  assert.equal(namesAlike('grip', 'grasp'), false);
});
