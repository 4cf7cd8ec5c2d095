/**
 * `diff` proposes a rename only when the schemas are the same AND the names are alike (issue 33 item 7):
 * a corpus of removed/added pairs, the false positive the issue reported (two unrelated tools that both
 * take `{}`) among them.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { diffCatalogs } from '../../src/diff/compare-catalogs.js';

const EMPTY = { type: 'object' };
const POSE = { type: 'object', properties: { x_mm: { type: 'number' }, y_mm: { type: 'number' } }, required: ['x_mm', 'y_mm'] };

/** [removed, added, schema of both, whether a rename is proposed] */
const CORPUS: [string, string, object, boolean][] = [
  ['get_weather', 'fetch_weather', POSE, true],
  ['getWeather', 'get_weather', EMPTY, true],
  ['move_arm_to_pose', 'move_to_pose', POSE, true],
  ['grasp_object', 'grasp_item', EMPTY, true],
  ['list_files', 'list-files', EMPTY, true],
  ['list_files', 'get_status', EMPTY, false],
  ['get_device_status', 'stop_arm', EMPTY, false],
  ['get_time', 'get_date', EMPTY, false],
  ['move_arm', 'stop_arm', EMPTY, false],
  ['grip', 'grasp', EMPTY, false],
  ['ping', 'health', EMPTY, false],
];

it('each pair of the corpus gets a rename guess exactly when its names are alike', () => {
  for (const [removed, added, schema, proposed] of CORPUS) {
    const diff = diffCatalogs([{ name: removed, inputSchema: schema }], [{ name: added, inputSchema: schema }]);
    const message = diff.changes.find((c) => c.tool === removed)!.message;
    const expected = `tool removed${proposed ? ` (a tool "${added}" with the same schemas was added: renamed?)` : ''}: callers that call "${removed}" now get an unknown-tool error`;
    assert.equal(message, expected, `${removed} -> ${added}`);
    const suggestion = diff.suggestions.find((s) => s.tool === removed)!.message;
    assert.equal(suggestion.includes(`to "${added}"`), proposed, suggestion);
  }
});

it('alike names with different schemas are not a rename', () => {
  const diff = diffCatalogs([{ name: 'get_weather', inputSchema: POSE }], [{ name: 'fetch_weather', inputSchema: EMPTY }]);
  assert.equal(diff.changes.find((c) => c.tool === 'get_weather')!.message, 'tool removed: callers that call "get_weather" now get an unknown-tool error');
});
