import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostError, mapTool, selectTools, SCOPES_META_KEY } from '../../src/host/index.js';
import type { ToolDescriptor } from '../../src/host/index.js';
import { corpusTool } from './corpus.js';

const read: ToolDescriptor = { name: 'read_pose', description: 'Read the arm pose.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } };
const move: ToolDescriptor = {
  name: 'move_arm', description: 'Move the arm.', inputSchema: { type: 'object', properties: { x: { type: 'number' } } },
  annotations: { destructiveHint: false, openWorldHint: false }, _meta: { [SCOPES_META_KEY]: ['arm:move'] },
};
const grasp: ToolDescriptor = { ...corpusTool('grasp_object_force_control'), annotations: { destructiveHint: true, openWorldHint: false }, _meta: { [SCOPES_META_KEY]: ['arm:grasp', 'arm:move'] } };
const unannotated: ToolDescriptor = { name: 'web_search', description: 'Search the web.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };

test('annotations: destructive and open-world tools are left out, and missing hints count as the spec defaults', () => {
  const s = selectTools([read, move, grasp, unannotated], { provider: 'anthropic', exclude: { destructive: true, openWorld: true } });
  assert.deepEqual(s.tools.map((t) => t.name), ['read_pose', 'move_arm']);
  assert.deepEqual(s.dropped, [
    { name: 'grasp_object_force_control', reason: 'destructive', detail: 'destructiveHint is true' },
    { name: 'web_search', reason: 'destructive', detail: 'no readOnlyHint/destructiveHint: the spec default is destructive' },
  ]);
  const openOnly = selectTools([read, unannotated], { provider: 'anthropic', exclude: { openWorld: true } });
  assert.deepEqual(openOnly.dropped, [{ name: 'web_search', reason: 'open-world', detail: 'no openWorldHint: the spec default is open-world' }]);
  assert.equal(selectTools([read, move, grasp, unannotated], { provider: 'anthropic' }).tools.length, 4, 'nothing excluded unless asked');
});

test('scopes: a tool needing a scope that was not granted is left out, naming the missing scopes', () => {
  const s = selectTools([read, move, grasp], { provider: 'gemini', scopes: ['arm:move'] });
  assert.deepEqual(s.tools.map((t) => t.name), ['read_pose', 'move_arm']);
  assert.deepEqual(s.dropped, [{ name: 'grasp_object_force_control', reason: 'missing-scopes', detail: 'needs "arm:grasp", not granted' }]);
  const custom = selectTools([read, move], { provider: 'gemini', scopes: [], scopesOf: (t) => (t.name === 'read_pose' ? ['pose:read'] : []) });
  assert.deepEqual(custom.dropped.map((d) => [d.name, d.reason]), [['read_pose', 'missing-scopes']]);
});

test('token budget: tools are kept in list order while they fit; the rest are reported with the numbers', () => {
  const [cRead, cMove, cGrasp] = [read, move, grasp].map((t) => mapTool(t, { provider: 'openai-chat' }).tokens) as [number, number, number];
  assert.ok(cGrasp > cMove, 'the corpus grasp tool is the larger one');
  const exact = selectTools([read, move, grasp], { provider: 'openai-chat', maxTokens: cRead + cMove });
  assert.deepEqual(exact.tools.map((t) => t.name), ['read_pose', 'move_arm']);
  assert.deepEqual(exact.dropped, [{ name: 'grasp_object_force_control', reason: 'token-budget', detail: `needs ${cGrasp} tokens; ${cRead + cMove} of ${cRead + cMove} already used` }]);
  assert.equal(exact.totalTokens, cRead + cMove);
  assert.deepEqual(exact.mapped.tools.map((t) => t.mcpName), ['read_pose', 'move_arm']);
  // A tool that does not fit does not stop smaller tools after it.
  const skip = selectTools([read, grasp, move], { provider: 'openai-chat', maxTokens: cRead + cMove });
  assert.deepEqual(skip.tools.map((t) => t.name), ['read_pose', 'move_arm']);
  assert.deepEqual(skip.dropped.map((d) => [d.name, d.reason]), [['grasp_object_force_control', 'token-budget']]);
  const zero = selectTools([read], { provider: 'openai-chat', maxTokens: 0 });
  assert.deepEqual(zero.tools, []);
  assert.deepEqual(zero.dropped, [{ name: 'read_pose', reason: 'token-budget', detail: `needs ${cRead} tokens; 0 of 0 already used` }]);
});

test('unmappable and invalid tools are reported, not thrown', () => {
  const external: ToolDescriptor = { name: 'ext', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/x' } } } };
  const s = selectTools([read, external, { name: 'broken' } as ToolDescriptor], { provider: 'gemini-legacy' });
  assert.deepEqual(s.tools.map((t) => t.name), ['read_pose']);
  assert.deepEqual(s.dropped.map((d) => [d.name, d.reason]), [['broken', 'invalid-tool'], ['ext', 'unmappable']]);
  assert.match(s.dropped[1]!.detail, /external reference https:\/\/example.com\/x is never fetched/);
});

test('bad options: unknown provider, bad budget', () => {
  assert.throws(() => selectTools([read], { provider: 'bard' as never }), (e: unknown) => e instanceof HostError && e.code === 'unknown_provider');
  for (const maxTokens of [-1, Number.NaN, Infinity]) {
    assert.throws(() => selectTools([read], { provider: 'anthropic', maxTokens }), (e: unknown) => e instanceof HostError && e.code === 'invalid_options' && /maxTokens must be a number/.test(e.message));
  }
  assert.throws(() => selectTools('tools' as never, { provider: 'anthropic' }), (e: unknown) => e instanceof HostError && e.code === 'invalid_options');
});
