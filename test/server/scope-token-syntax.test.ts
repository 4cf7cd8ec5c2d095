/**
 * Every definition that takes `scopes` (tools, resources, resource templates, prompts) checks them
 * with the one RFC 6749 section 3.3 scope-token checker, and refuses the same bad inputs with an
 * error naming the definition, the entry and the value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool, definePrompt, defineResource, defineResourceTemplate, ToolDefinitionError } from '../../src/index.js';
import { isScopeToken, scopeListProblems, TOOL_SCOPES_META_KEY } from '../../src/protocol/index.js';

const SPEC = 'is not a scope token (RFC 6749 section 3.3)';

/** Each bad list, and the words that must follow `<where>: ` in the error. */
const BAD: ReadonlyArray<{ label: string; scopes: unknown; message: string }> = [
  { label: 'not an array', scopes: 'docs:read', message: 'scopes must be an array of scope tokens, got string' },
  { label: 'null', scopes: null, message: 'scopes must be an array of scope tokens, got null' },
  { label: 'empty token', scopes: ['ok', ''], message: `scopes[1] "" ${SPEC}: it is empty` },
  { label: 'space inside', scopes: ['docs:read vault:open'], message: `scopes[0] "docs:read vault:open" ${SPEC}: it contains a space (a scope list is space-separated, so this would be several scopes)` },
  { label: 'tab inside', scopes: ['a\tb'], message: `scopes[0] "a\\tb" ${SPEC}: it contains the control or whitespace character U+0009` },
  { label: 'double quote', scopes: ['say"hi'], message: `scopes[0] "say\\"hi" ${SPEC}: it contains a double quote (")` },
  { label: 'backslash', scopes: ['a\\b'], message: `scopes[0] "a\\\\b" ${SPEC}: it contains a backslash (\\)` },
  { label: 'non-ASCII', scopes: ['café:read'], message: `scopes[0] "café:read" ${SPEC}: it contains the non-ASCII character U+00E9` },
  { label: 'DEL', scopes: ['a\u007f'], message: `scopes[0] "a\u007f" ${SPEC}: it contains the non-ASCII character U+007F` },
  { label: 'number', scopes: [7], message: `scopes[0] 7 ${SPEC}: it is a number, not a string` },
  { label: 'nested array', scopes: [['a']], message: `scopes[0] ["a"] ${SPEC}: it is an array, not a string` },
  { label: 'duplicate', scopes: ['docs:read', 'arm:move', 'docs:read'], message: 'scopes[2] "docs:read" repeats scopes[0]' },
];

const read = (): string => '';

describe('scope tokens in definitions (RFC 6749 section 3.3)', () => {
  for (const bad of BAD) {
    it(`refuses ${bad.label} in every kind of definition`, () => {
      const scopes = bad.scopes as never;
      assert.throws(() => defineTool({ name: 'move_arm', inputSchema: { type: 'object' }, scopes, run: () => 'ran' }), (error: unknown) => {
        assert.ok(error instanceof ToolDefinitionError);
        assert.equal(error.message, `Tool "move_arm": ${bad.message}`);
        assert.equal(error.toolName, 'move_arm');
        return true;
      });
      assert.throws(() => defineResource({ uri: 'a://b', name: 'b', scopes, read }), { name: 'TypeError', message: `defineResource(a://b): ${bad.message}` });
      assert.throws(() => defineResourceTemplate({ uriTemplate: 'a://{x}', name: 'x', scopes, read }), { name: 'TypeError', message: `defineResourceTemplate(a://{x}): ${bad.message}` });
      assert.throws(() => definePrompt({ name: 'p', scopes, get: () => [] }), { name: 'TypeError', message: `definePrompt(p): ${bad.message}` });
    });
  }

  it('accepts every printable ASCII character the grammar allows, and advertises a tool\'s scopes in _meta', () => {
    const allowed = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => c !== '"' && c !== '\\').join('');
    assert.equal(isScopeToken(allowed), true);
    assert.deepEqual(scopeListProblems([allowed, 'openid']), []);
    const tool = defineTool({ name: 'move_arm', inputSchema: { type: 'object' }, scopes: ['arm:move', 'openid'], _meta: { keep: 1 }, run: () => 'ran' });
    assert.deepEqual(tool.scopes, ['arm:move', 'openid']);
    assert.equal(Object.isFrozen(tool.scopes), true);
    assert.deepEqual(tool.descriptor._meta, { keep: 1, [TOOL_SCOPES_META_KEY]: ['arm:move', 'openid'] });
    const plain = defineTool({ name: 'status', inputSchema: { type: 'object' }, scopes: [], run: () => 'ran' });
    assert.deepEqual(plain.scopes, []);
    assert.equal(plain.descriptor._meta, undefined);
  });

  it('reports every problem of a list, not only the first', () => {
    assert.deepEqual(scopeListProblems(['a', 'a b', 'a', 7]).map((p) => p.index), [1, 2, 3]);
    assert.deepEqual(scopeListProblems(undefined), []);
  });
});
