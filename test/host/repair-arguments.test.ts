import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostError, mapTool, mapTools, parseArgumentsText, repairArguments, resolveToolCall } from '../../src/host/index.js';
import type { ToolDescriptor } from '../../src/host/index.js';
import { corpusTool } from './corpus.js';

const tool: ToolDescriptor = {
  name: 'typed',
  inputSchema: {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      ratio: { type: 'number' },
      flag: { type: 'boolean' },
      name: { type: 'string' },
      code: { type: ['string', 'integer'] },
      point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'], additionalProperties: false },
      list: { type: 'array', items: { type: 'integer' } },
      id: { type: 'integer' },
      note: { type: ['string', 'null'] },
    },
    required: ['count'],
    additionalProperties: false,
  },
};

test('numeric strings become numbers only where a number is expected and the text is canonical', () => {
  const r = repairArguments(tool, { count: '15', ratio: '2.5', name: '15', code: '15', list: ['1', '2'] }, 'openai-chat');
  assert.deepEqual(r.value, { count: 15, ratio: 2.5, name: '15', code: '15', list: [1, 2] });
  assert.deepEqual(r.repairs.map((x) => [x.path, x.kind, x.from, x.to]), [
    ['/count', 'numeric-string', '15', 15], ['/ratio', 'numeric-string', '2.5', 2.5], ['/list/0', 'numeric-string', '1', 1], ['/list/1', 'numeric-string', '2', 2],
  ]);
  for (const bad of ['15N', '015', '1e1', ' 15', '15.0', '0x10', '', 'NaN', 'Infinity', '1.5']) {
    const out = repairArguments(tool, { count: bad }, 'openai-chat');
    assert.deepEqual(out.value, { count: bad }, `"${bad}" is not an integer's canonical text`);
    assert.deepEqual(out.repairs, []);
  }
});

test('"true"/"false" become booleans only where a boolean is expected', () => {
  const r = repairArguments(tool, { count: 1, flag: 'false', name: 'true' }, 'anthropic');
  assert.deepEqual(r.value, { count: 1, flag: false, name: 'true' });
  assert.deepEqual(r.repairs, [{ path: '/flag', kind: 'boolean-string', from: 'false', to: false }]);
  assert.deepEqual(repairArguments(tool, { count: 1, flag: 'yes' }, 'anthropic').value, { count: 1, flag: 'yes' });
});

test('JSON strings become objects and arrays where one is expected, and are repaired inside too', () => {
  const r = repairArguments(tool, { count: 1, point: '{"x":"3"}', list: '[4, "5"]', name: '{"x":1}' }, 'gemini');
  assert.deepEqual(r.value, { count: 1, point: { x: 3 }, list: [4, 5], name: '{"x":1}' });
  assert.deepEqual(r.repairs.map((x) => [x.path, x.kind]), [
    ['/point', 'json-string'], ['/point/x', 'numeric-string'], ['/list', 'json-string'], ['/list/1', 'numeric-string'],
  ]);
  assert.deepEqual(repairArguments(tool, { count: 1, point: '{not json' }, 'gemini').value, { count: 1, point: '{not json' });
});

test('empty or missing arguments become {}', () => {
  for (const empty of ['', '   \n', undefined, null]) {
    const r = repairArguments(corpusTool('ping'), empty, 'openai-responses');
    assert.deepEqual(r.value, {});
    assert.deepEqual(r.repairs, [{ path: '', kind: 'empty-arguments', from: empty, to: {} }]);
  }
});

test('argument text is parsed; twice-encoded arguments are unwrapped; non-JSON text is passed on untouched', () => {
  assert.deepEqual(repairArguments(tool, '{"count":"3"}', 'openai-chat').value, { count: 3 });
  const twice = repairArguments(tool, JSON.stringify(JSON.stringify({ count: 3 })), 'openai-chat');
  assert.deepEqual(twice.value, { count: 3 });
  assert.equal(twice.repairs[0]!.kind, 'json-string');
  assert.deepEqual(repairArguments(tool, 'count=3', 'openai-chat'), { value: 'count=3', repairs: [] });
});

test('integers beyond 2^53 are never rounded: kept as exact digit strings', () => {
  const text = '{"count":1,"id":18446744073709551615,"list":[9007199254740993, 7]}';
  const r = repairArguments(tool, text, 'openai-chat');
  assert.deepEqual(r.value, { count: 1, id: '18446744073709551615', list: ['9007199254740993', 7] });
  assert.deepEqual(r.repairs.map((x) => [x.path, x.kind, x.to]), [
    ['/id', 'unsafe-integer-kept-as-string', '18446744073709551615'], ['/list/0', 'unsafe-integer-kept-as-string', '9007199254740993'],
  ]);
  const asString = repairArguments(tool, { count: '9007199254740993' }, 'openai-chat');
  assert.deepEqual(asString.value, { count: '9007199254740993' });
  assert.deepEqual(asString.repairs, [{ path: '/count', kind: 'unsafe-integer-kept-as-string', from: '9007199254740993', to: '9007199254740993' }]);
  assert.deepEqual(repairArguments(tool, { count: '9007199254740991' }, 'openai-chat').value, { count: 9007199254740991 }, '2^53-1 is still safe');
});

test('parseArgumentsText: exact JSON semantics otherwise, and strings that look like numbers stay strings', () => {
  assert.deepEqual(parseArgumentsText('{"a":"12345678901234567890","b":-12345678901234567890,"c":1.5e300,"d":"\\"9007199254740993"}'), {
    value: { a: '12345678901234567890', b: '-12345678901234567890', c: 1.5e300, d: '"9007199254740993' },
    unsafeIntegers: ['/b'],
  });
  assert.throws(() => parseArgumentsText('{"a":}'), SyntaxError);
  const proto = parseArgumentsText('{"__proto__":{"polluted":18446744073709551615}}').value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.deepEqual(Object.keys(proto), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('null becomes absent only for fields the strict lowering made nullable', () => {
  const mapped = mapTool(tool, { provider: 'openai-chat' });
  assert.equal(mapped.strict, true);
  const r = repairArguments(tool, { count: 1, ratio: null, flag: null, name: null, code: null, point: null, list: null, id: null, note: null }, mapped);
  assert.deepEqual(r.value, { count: 1, note: null }, 'note allows null in the original, so null keeps its meaning');
  assert.deepEqual(r.repairs.map((x) => x.path), ['/ratio', '/flag', '/name', '/code', '/point', '/list', '/id']);
  assert.ok(r.repairs.every((x) => x.kind === 'null-to-absent' && x.from === null && x.to === undefined));
  const loose = repairArguments(tool, { count: 1, ratio: null }, { provider: 'openai-chat', strict: false });
  assert.deepEqual(loose.value, { count: 1, ratio: null }, 'non-strict lowering made nothing nullable: null is passed on for the server to judge');
  const required = repairArguments(tool, { count: null }, mapped);
  assert.deepEqual(required.value, { count: null }, 'a required field was never made nullable');
});

test('null-to-absent reaches fields inside $defs and merged root alternatives', () => {
  const shapes = repairArguments(corpusTool('draw_shape'), { color: null, kind: 'rect', radius: null, width: '2', height: 3 }, 'openai-responses');
  assert.deepEqual(shapes.value, { kind: 'rect', width: 2, height: 3 });
  const message = repairArguments(corpusTool('send_message'), { channel: null, user: 'ann', text: 'hi' }, 'openai-chat');
  assert.deepEqual(message.value, { user: 'ann', text: 'hi' });
  const tree = corpusTool('save_tree');
  const mapped = mapTool({ ...tree, inputSchema: { ...tree.inputSchema, $defs: { Node: { ...(tree.inputSchema.$defs as { Node: object }).Node, required: [] } } } }, { provider: 'openai-chat' });
  assert.ok(mapped.nullableOptional.includes('/$defs/Node/properties/label'));
});

test('legacy Gemini cut recursion: deeper levels sent as JSON text are parsed back into objects', () => {
  const r = repairArguments(corpusTool('save_tree'), { root: { label: 'a', children: [{ label: 'b', children: ['{"label":"c","children":[]}'] }] } }, 'gemini-legacy');
  assert.deepEqual(r.value, { root: { label: 'a', children: [{ label: 'b', children: [{ label: 'c', children: [] }] }] } });
  assert.deepEqual(r.repairs.map((x) => [x.path, x.kind]), [['/root/children/0/children/0', 'json-string']]);
});

test('bad input: unknown provider, a mapped tool of another tool, an invalid tool', () => {
  assert.throws(() => repairArguments(tool, {}, 'cohere' as never), (e: unknown) => e instanceof HostError && e.code === 'unknown_provider');
  const other = mapTool(corpusTool('ping'), { provider: 'anthropic' });
  assert.throws(() => repairArguments(tool, {}, other), (e: unknown) => e instanceof HostError && e.code === 'invalid_options' && /the mapped tool is "ping", not "typed"/.test(e.message));
  assert.throws(() => repairArguments({ name: 'x' } as ToolDescriptor, {}, 'anthropic'), (e: unknown) => e instanceof HostError && e.code === 'invalid_tool');
  assert.throws(() => repairArguments(tool, {}, 42 as never), (e: unknown) => e instanceof HostError && e.code === 'invalid_options');
});

test('null-to-absent inside array items; resolveToolCall maps the provider name back and repairs', () => {
  const batch: ToolDescriptor = {
    name: 'admin.batch-move',
    inputSchema: {
      type: 'object',
      properties: { moves: { type: 'array', items: { type: 'object', properties: { to: { type: 'number' }, speed: { type: 'number' } }, required: ['to'] } } },
      required: ['moves'],
    },
  };
  const catalog = mapTools([batch, corpusTool('ping')], { provider: 'openai-chat', serverPrefix: 'arm' });
  const mapped = catalog.tools[0]!;
  assert.equal(mapped.providerName, 'arm__admin_batch-move');
  assert.deepEqual(mapped.nullableOptional, ['/properties/moves/items/properties/speed']);
  const call = resolveToolCall(catalog, 'arm__admin_batch-move', '{"moves":[{"to":"1.5","speed":null},{"to":2,"speed":"0.5"}]}');
  assert.deepEqual(call, {
    name: 'admin.batch-move',
    arguments: { moves: [{ to: 1.5 }, { to: 2, speed: 0.5 }] },
    repairs: [
      { path: '/moves/0/to', kind: 'numeric-string', from: '1.5', to: 1.5 },
      { path: '/moves/0/speed', kind: 'null-to-absent', from: null, to: undefined },
      { path: '/moves/1/speed', kind: 'numeric-string', from: '0.5', to: 0.5 },
    ],
  });
  assert.deepEqual(resolveToolCall(catalog, 'arm__ping', '').arguments, {});
  assert.throws(() => resolveToolCall(catalog, 'admin.batch-move', '{}'), (e: unknown) => e instanceof HostError && e.code === 'unknown_tool'
    && e.message === 'the model called "admin.batch-move", which was not offered (offered: arm__admin_batch-move, arm__ping)');
});
