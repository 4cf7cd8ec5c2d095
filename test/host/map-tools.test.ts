import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkProviderTool, HostError, mapTool, mapTools } from '../../src/host/index.js';
import type { LossEntry, MappedTool, ToolDescriptor } from '../../src/host/index.js';
import { corpusTool, golden, loadCorpus, VARIANTS } from './corpus.js';

function lossOf(tool: MappedTool, pointer: string, keyword: string): LossEntry[] {
  return tool.loss.filter((e) => e.pointer === pointer && e.keyword === keyword);
}

function action(tool: MappedTool, pointer: string, keyword: string): string[] {
  return lossOf(tool, pointer, keyword).map((e) => e.action);
}

for (const variant of VARIANTS) {
  test(`golden: the corpus through ${variant.id} matches the committed provider JSON and loss reports`, () => {
    const catalog = mapTools(loadCorpus(), variant.options);
    const actual = {
      request: catalog.request,
      tools: catalog.tools.map((t) => ({
        mcpName: t.mcpName, providerName: t.providerName, strict: t.strict, tokens: t.tokens,
        nullableOptional: t.nullableOptional, strictFallback: t.strictFallback ?? null, loss: t.loss,
      })),
      failures: catalog.failures,
      reverseNames: catalog.reverseNames,
      totalTokens: catalog.totalTokens,
    };
    assert.deepEqual(actual, golden(variant.id, actual));
  });

  test(`constraints: every ${variant.id} output passes the ${variant.options.provider} checker`, () => {
    const catalog = mapTools(loadCorpus(), variant.options);
    assert.equal(catalog.failures.length, 0, JSON.stringify(catalog.failures));
    assert.equal(catalog.tools.length, loadCorpus().length);
    for (const tool of catalog.tools) assert.deepEqual(checkProviderTool(variant.options.provider, tool.json), [], tool.mcpName);
    const names = catalog.tools.map((t) => t.providerName);
    assert.equal(new Set(names).size, names.length, 'provider names are unique');
    for (const tool of catalog.tools) assert.equal(catalog.reverseNames[tool.providerName], tool.mcpName);
  });
}

test('checker catches what each provider rejects', () => {
  const open = { type: 'function', function: { name: 'x', parameters: { type: 'object', properties: { a: { type: 'string' } } }, strict: true } };
  const problems = checkProviderTool('openai-chat', open).map((v) => v.message);
  assert.ok(problems.includes('additionalProperties must be false on every object'));
  assert.ok(problems.includes('property "a" must be listed in required'));
  assert.deepEqual(checkProviderTool('openai-responses', { type: 'function', name: 'x', parameters: { type: 'object', properties: {} } }).map((v) => v.pointer), ['/strict']);
  const legacy = checkProviderTool('gemini-legacy', { name: 'x', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING', const: 'b' } }, additionalProperties: false } });
  assert.deepEqual(legacy.map((v) => v.pointer).sort(), ['/parameters/additionalProperties', '/parameters/properties/a/const']);
  assert.deepEqual(checkProviderTool('anthropic', { name: 'x', input_schema: { type: 'object', properties: {}, oneOf: [] } }).map((v) => v.message), ['oneOf is not allowed at the root']);
  assert.deepEqual(checkProviderTool('gemini', { name: '1x', parametersJsonSchema: { type: 'object', properties: {} } }).map((v) => v.message), ['name must start with a letter or underscore']);
  assert.throws(() => checkProviderTool('mistral' as never, {}), (e: unknown) => e instanceof HostError && e.code === 'unknown_provider');
});

test('OpenAI strict: optional fields become required + nullable and are remembered', () => {
  const tool = mapTool(corpusTool('set_speed'), { provider: 'openai-chat' });
  assert.equal(tool.strict, true);
  const params = tool.parameters as { required: string[]; properties: Record<string, { type: unknown }>; additionalProperties: unknown };
  assert.deepEqual(params.required, ['line', 'speed', 'verbose']);
  assert.deepEqual(params.properties.speed!.type, ['integer', 'null']);
  assert.deepEqual(params.properties.line!.type, 'string');
  assert.equal(params.additionalProperties, false);
  assert.deepEqual(tool.nullableOptional, ['/properties/speed', '/properties/verbose']);
  assert.deepEqual(action(tool, '/properties/line', 'minLength'), ['moved-into-description']);
  assert.match(String((params.properties.line as { description?: string }).description), /minLength: 1; maxLength: 32/);
  assert.deepEqual(action(tool, '/properties/verbose', 'default'), ['moved-into-description']);
  assert.equal((tool.json.function as { strict?: boolean }).strict, true);
});

test('root oneOf is merged into one object for strict OpenAI, Anthropic and Gemini, with the forms in the description', () => {
  for (const provider of ['openai-chat', 'anthropic', 'gemini', 'gemini-legacy'] as const) {
    const tool = mapTool(corpusTool('draw_shape'), { provider });
    assert.equal('oneOf' in tool.parameters, false, provider);
    assert.deepEqual(action(tool, '', 'oneOf'), ['moved-into-description'], provider);
    const kind = (tool.parameters.properties as Record<string, { enum?: unknown[] }>).kind!;
    assert.deepEqual(kind.enum?.filter((v) => v !== null), ['circle', 'rect'], provider);
    const description = JSON.stringify(tool.json);
    assert.match(description, /Exactly one of these argument forms applies: \(1\) circle, requires kind, radius/, provider);
  }
  const loose = mapTool(corpusTool('draw_shape'), { provider: 'openai-chat', strict: false });
  assert.ok(Array.isArray(loose.parameters.oneOf), 'non-strict OpenAI passes root oneOf through as a hint');
});

test('recursive $ref: kept as a top-level $defs reference for OpenAI strict and Gemini, cut into JSON text for legacy Gemini', () => {
  const strict = mapTool(corpusTool('save_tree'), { provider: 'openai-chat' });
  assert.equal(strict.strict, true);
  assert.deepEqual((strict.parameters.properties as Record<string, unknown>).root, { $ref: '#/$defs/Node' });
  const gemini = mapTool(corpusTool('save_tree'), { provider: 'gemini' });
  assert.deepEqual((gemini.parameters.properties as Record<string, unknown>).root, { $ref: '#/$defs/Node' });
  const legacy = mapTool(corpusTool('save_tree'), { provider: 'gemini-legacy' });
  assert.equal(JSON.stringify(legacy.parameters).includes('$ref'), false);
  assert.deepEqual(action(legacy, '/$defs/Node/properties/children/items', '$ref'), ['kept', 'moved-into-description'], 'inlined once, then cut');
  assert.match(JSON.stringify(legacy.parameters), /JSON text of a nested value of #\/\$defs\/Node/);
});

test('$ref with sibling keywords is inlined in strict mode (no keywords beside $ref)', () => {
  const tool = mapTool(corpusTool('move_to'), { provider: 'openai-responses' });
  const target = (tool.parameters.properties as Record<string, Record<string, unknown>>).target!;
  assert.equal(target.$ref, undefined);
  assert.equal(target.description, 'Where to go, in metres');
  assert.deepEqual(target.required, ['x', 'y', 'z']);
  const via = (tool.parameters.properties as Record<string, unknown>).via;
  assert.deepEqual(via, { anyOf: [{ $ref: '#/$defs/Point' }, { type: 'null' }] });
  assert.equal(tool.json.strict, true);
});

test('formats and patterns follow each provider list', () => {
  const strict = mapTool(corpusTool('register_device'), { provider: 'openai-chat' });
  assert.deepEqual(action(strict, '/properties/owner', 'format'), ['kept']);
  assert.deepEqual(action(strict, '/properties/homepage', 'format'), ['moved-into-description']);
  assert.deepEqual(action(strict, '/properties/serial', 'pattern'), ['kept']);
  assert.deepEqual(action(strict, '/properties/password_hint', 'pattern'), ['moved-into-description']);
  const gemini = mapTool(corpusTool('register_device'), { provider: 'gemini' });
  assert.deepEqual(action(gemini, '/properties/owner', 'format'), ['moved-into-description']);
  assert.deepEqual(action(gemini, '/properties/seen_at', 'format'), ['kept']);
  assert.deepEqual(action(gemini, '/properties/serial', 'pattern'), ['moved-into-description']);
});

test('const, exclusiveMinimum and type lists per provider', () => {
  const strict = mapTool(corpusTool('configure_mode'), { provider: 'openai-chat' });
  const props = strict.parameters.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(props.mode, { enum: ['fast'], type: 'string' });
  assert.deepEqual(props.label!.type, ['string', 'null']);
  assert.equal(strict.nullableOptional.includes('/properties/label'), false, 'already nullable: null keeps its meaning');
  const legacy = mapTool(corpusTool('configure_mode'), { provider: 'gemini-legacy' });
  const lp = legacy.parameters.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(lp.label, { type: 'STRING', nullable: true });
  assert.deepEqual(lp.mode, { enum: ['fast'], type: 'STRING' });
  assert.equal(lp.level!.enum, undefined, 'numeric enums are not allowed in the OpenAPI subset');
  assert.match(String(lp.level!.description), /enum: \[1,2,3\]/);
  const measureStrict = mapTool(corpusTool('measure'), { provider: 'openai-chat' });
  assert.deepEqual(action(measureStrict, '/properties/value', 'exclusiveMinimum'), ['kept']);
  const measureLegacy = mapTool(corpusTool('measure'), { provider: 'gemini-legacy' });
  assert.deepEqual(action(measureLegacy, '/properties/value', 'exclusiveMinimum'), ['moved-into-description']);
  assert.deepEqual(action(measureLegacy, '/properties/value', 'multipleOf'), ['moved-into-description']);
});

test('strict "auto" falls back to non-strict with reasons; strict true refuses with them', () => {
  for (const name of ['deep_config', 'label_items', 'update_profile']) {
    const tool = mapTool(corpusTool(name), { provider: 'openai-chat' });
    assert.equal(tool.strict, false, name);
    assert.ok(tool.strictFallback && tool.strictFallback.length > 0, name);
    assert.equal('strict' in (tool.json.function as object), false, 'chat non-strict omits strict');
    const responses = mapTool(corpusTool(name), { provider: 'openai-responses' });
    assert.equal(responses.json.strict, false, 'Responses always sends strict explicitly');
  }
  assert.match(mapTool(corpusTool('deep_config'), { provider: 'openai-chat' }).strictFallback!.join(), /more than 10 levels of object nesting/);
  assert.throws(() => mapTool(corpusTool('label_items'), { provider: 'openai-chat', strict: true }), (e: unknown) =>
    e instanceof HostError && e.code === 'unmappable_tool' && /strict mode: .*a map \(additionalProperties with a schema\)/.test(e.message));
});

test('prefixItems: kept for Gemini JSON, turned into items anyOf + the order in the description elsewhere', () => {
  const gemini = mapTool(corpusTool('place_marker'), { provider: 'gemini' });
  assert.equal(Array.isArray((gemini.parameters.properties as Record<string, Record<string, unknown>>).position!.prefixItems), true);
  const strict = mapTool(corpusTool('place_marker'), { provider: 'openai-chat' });
  const position = (strict.parameters.properties as Record<string, Record<string, unknown>>).position!;
  assert.equal(position.prefixItems, undefined);
  assert.deepEqual(position.items, { anyOf: [{ type: 'number' }, { type: 'number' }, { type: 'number' }] });
  assert.equal(position.maxItems, 3);
  assert.match(String(position.description), /prefixItems \(position by position\)/);
  assert.deepEqual(action(strict, '/properties/tags', 'uniqueItems'), ['moved-into-description']);
});

test('draft-07 definitions and tuple items are understood', () => {
  const strict = mapTool(corpusTool('legacy_draft7'), { provider: 'openai-chat' });
  assert.deepEqual((strict.parameters.properties as Record<string, unknown>).primary, { $ref: '#/$defs/Color' });
  assert.ok('$defs' in strict.parameters && !('definitions' in strict.parameters));
  assert.deepEqual(action(strict, '', '$schema'), ['dropped']);
});

test('x-mcp-header and other extensions never reach a provider', () => {
  for (const variant of VARIANTS) {
    const tool = mapTool(corpusTool('grasp_object_force_control'), variant.options);
    assert.equal(JSON.stringify(tool.json).includes('x-mcp-header'), false, variant.id);
    assert.deepEqual(action(tool, '/properties/arm_id', 'x-mcp-header'), ['dropped'], variant.id);
  }
});

test('tools without arguments always get properties: {}', () => {
  for (const variant of VARIANTS) {
    const tool = mapTool(corpusTool('ping'), variant.options);
    assert.deepEqual(tool.parameters.properties, {}, variant.id);
  }
});

test('names: cleaned, unique, prefixed, length-limited, and mapped back', () => {
  const tools = loadCorpus();
  const chat = mapTools(tools, { provider: 'openai-chat', serverPrefix: 'robot' });
  const byMcp = new Map(chat.tools.map((t) => [t.mcpName, t.providerName]));
  assert.equal(byMcp.get('set_speed'), 'robot__set_speed');
  assert.equal(byMcp.get('admin.tools.list'), 'robot__admin_tools_list');
  assert.equal(byMcp.get('admin-tools-list'), 'robot__admin-tools-list');
  for (const t of chat.tools) assert.match(t.providerName, /^[a-zA-Z0-9_-]{1,64}$/);
  const gemini = mapTools(tools, { provider: 'gemini' });
  const g = new Map(gemini.tools.map((t) => [t.mcpName, t.providerName]));
  assert.equal(g.get('admin.tools.list'), 'admin_tools_list');
  assert.match(g.get('admin-tools-list')!, /^admin_tools_list_[0-9a-f]{8}$/, 'collision gets a hash of its own name');
  assert.equal(gemini.reverseNames[g.get('admin-tools-list')!], 'admin-tools-list');
  const long = g.get('a_very_long_tool_name_that_goes_on_and_on_past_the_sixty_four_character_limit_of_openai')!;
  assert.equal(long.length, 64);
  const anthropic = mapTools(tools, { provider: 'anthropic' });
  const longAnthropic = anthropic.tools.find((t) => t.mcpName.startsWith('a_very'))!;
  assert.equal(longAnthropic.providerName, longAnthropic.mcpName, 'Anthropic allows 128 characters');
  assert.equal(mapTools([{ name: '9lives', inputSchema: { type: 'object' } }], { provider: 'gemini' }).tools[0]!.providerName, '_9lives');
});

test('bad input: unknown provider, invalid tools, invalid options', () => {
  const ok = corpusTool('ping');
  const is = (code: string, pattern: RegExp) => (e: unknown) => e instanceof HostError && e.code === code && pattern.test(e.message);
  assert.throws(() => mapTool(ok, { provider: 'mistral' as never }), is('unknown_provider', /unknown provider "mistral"; use one of: openai-chat/));
  assert.throws(() => mapTools([ok], { provider: undefined as never }), is('unknown_provider', /unknown provider undefined/));
  assert.throws(() => mapTool({ name: '', inputSchema: { type: 'object' } }, { provider: 'anthropic' }), is('invalid_tool', /empty or missing "name"/));
  assert.throws(() => mapTool({ name: 'x' } as ToolDescriptor, { provider: 'anthropic' }), is('invalid_tool', /tool "x": "inputSchema" must be a JSON Schema object/));
  assert.throws(() => mapTool({ name: 'x', inputSchema: { type: 'array' } }, { provider: 'anthropic' }), is('invalid_tool', /root must have "type": "object" \(got "array"\)/));
  assert.throws(() => mapTool(ok, { provider: 'gemini', strict: true }), is('invalid_options', /gemini has no strict mode/));
  assert.throws(() => mapTool(ok, { provider: 'openai-chat', strict: 'yes' as never }), is('invalid_options', /strict must be true, false or "auto"/));
  assert.throws(() => mapTools([ok, ok], { provider: 'anthropic' }), is('name_collision', /two tools are both named "ping"/));
  assert.throws(() => mapTools([ok], { provider: 'openai-chat', serverPrefix: '' }), is('invalid_options', /serverPrefix must be 1 to 32 characters/));
  const external = { name: 'ext', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } } };
  assert.throws(() => mapTool(external, { provider: 'gemini' }), is('unmappable_tool', /external reference https:\/\/example.com\/a.json is never fetched/));
});

test('one bad tool does not fail the catalogue', () => {
  const catalog = mapTools([corpusTool('ping'), { name: 'bad', inputSchema: { type: 'string' } } as ToolDescriptor,
    { name: 'ext', inputSchema: { type: 'object', properties: { a: { $ref: 'other.json' } } } }], { provider: 'gemini' });
  assert.deepEqual(catalog.tools.map((t) => t.mcpName), ['ping']);
  assert.deepEqual(catalog.failures.map((f) => [f.mcpName, f.code]), [['bad', 'invalid_tool'], ['ext', 'unmappable_tool']]);
  assert.deepEqual(catalog.failures[1]!.loss.filter((e) => e.action === 'rejected'), [
    { pointer: '/properties/a', keyword: '$ref', action: 'rejected', note: 'external reference other.json is never fetched (MCP R-40)' },
  ]);
  assert.deepEqual(catalog.request, { tools: [{ functionDeclarations: [catalog.tools[0]!.json] }] });
});

test('Anthropic strict: opt-in, closed objects, optional stays optional, bounds move out, budgets across the request', () => {
  const plain = mapTool(corpusTool('set_speed'), { provider: 'anthropic' });
  assert.equal(plain.strict, false, 'non-strict unless asked');
  assert.equal('strict' in plain.json, false);
  const strict = mapTool(corpusTool('set_speed'), { provider: 'anthropic', strict: true });
  assert.equal(strict.json.strict, true);
  assert.deepEqual(strict.parameters.required, ['line'], 'optional properties stay optional');
  assert.deepEqual(strict.nullableOptional, []);
  assert.deepEqual(action(strict, '/properties/speed', 'minimum'), ['moved-into-description']);
  assert.deepEqual(action(strict, '/properties/verbose', 'default'), ['kept']);
  assert.throws(() => mapTool(corpusTool('save_tree'), { provider: 'anthropic', strict: true }), (e: unknown) =>
    e instanceof HostError && e.code === 'unmappable_tool' && /recursive schemas are not supported in strict mode/.test(e.message));
  const many = Array.from({ length: 22 }, (_, i): ToolDescriptor => ({ name: `t${i}`, inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } }));
  const auto = mapTools(many, { provider: 'anthropic', strict: 'auto' });
  assert.deepEqual(auto.tools.map((t) => t.strict), [...Array(20).fill(true), false, false]);
  assert.deepEqual(auto.tools[20]!.strictFallback, ['more than 20 strict tools in one request']);
  const forced = mapTools(many, { provider: 'anthropic', strict: true });
  assert.equal(forced.tools.length, 20);
  assert.deepEqual(forced.failures.map((f) => [f.mcpName, f.code]), [['t20', 'unmappable_tool'], ['t21', 'unmappable_tool']]);
  const optional = Array.from({ length: 3 }, (_, i): ToolDescriptor => ({
    name: `o${i}`, inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`p${k}`, { type: 'string' }])) },
  }));
  const budget = mapTools(optional, { provider: 'anthropic', strict: 'auto' });
  assert.deepEqual(budget.tools.map((t) => t.strict), [true, true, false]);
  assert.deepEqual(budget.tools[2]!.strictFallback, ['more than 24 optional parameters across strict tools (this tool has 10, 20 already used)']);
  for (const t of [...auto.tools, ...budget.tools]) assert.deepEqual(checkProviderTool('anthropic', t.json), []);
});
