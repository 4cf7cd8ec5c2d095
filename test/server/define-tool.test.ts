import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { checkToolDefinition, createServer, defineTool, ServerDefinitionError, ToolDefinitionError } from '../../src/index.js';
import type { ToolDescriptor } from '../../src/index.js';
import { rpc } from '../fixtures/servers/raw-http.js';
import { assertServerMessage, assertWireDef } from '../fixtures/servers/wire-schema.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(_proof?: T): void {}

const descriptor = (patch: Partial<ToolDescriptor> & Record<string, unknown>): ToolDescriptor => ({ name: 'ok_tool', inputSchema: { type: 'object' }, ...patch });

async function callOver(server: ReturnType<typeof createServer>, message: Record<string, unknown>): Promise<Record<string, unknown>> {
  const signal = new AbortController().signal;
  const reply = await server.handleMessage({ body: JSON.stringify(message), transport: 'stdio', header: undefined, signal, isAborted: () => signal.aborted, notify: () => {} });
  const parsed = JSON.parse(reply.body as string) as Record<string, unknown>;
  assertServerMessage(parsed, message.method as string);
  return parsed;
}

describe('defineTool', () => {
  it('builds the wire descriptor in a readable key order and freezes it', () => {
    const tool = defineTool({
      name: 'grasp',
      title: 'Grasp',
      description: 'Grip an object.',
      inputSchema: { type: 'object', properties: { force: { type: 'number', minimum: 5, maximum: 30 } }, required: ['force'] } as const,
      outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } as const,
      annotations: { destructiveHint: true },
      icons: [{ src: 'data:image/png;base64,AAAA', mimeType: 'image/png' }],
      _meta: { 'com.example/owner': 'robotics' },
      run: () => ({ structuredContent: { ok: true } }),
    });
    assert.deepEqual(Object.keys(tool.descriptor), ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta']);
    assertWireDef(tool.descriptor, 'Tool');
    assert.ok(Object.isFrozen(tool.descriptor));
    assert.ok(Object.isFrozen(tool.descriptor.inputSchema));
    assert.throws(() => {
      (tool.descriptor.inputSchema as Record<string, unknown>).type = 'array';
    }, TypeError);
  });

  it('copies literal schemas so later mutation of the caller object changes neither list nor validation', async () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const tool = defineTool({ name: 'copy', inputSchema: schema, run: () => 'ok' });
    (schema.properties.n as Record<string, unknown>).type = 'string';
    const server = createServer({ name: 's', version: '1', tools: [tool] });
    assert.deepEqual(server.tools[0]?.inputSchema, { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    const result = (await callOver(server, rpc('tools/call', { name: 'copy', arguments: { n: 'x' } }))).result as Record<string, unknown>;
    assert.equal(result.isError, true);
  });

  it('outputSchema types what run returns (JSON Schema as const and zod); breaking it does not compile', () => {
    const sumSchema = { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'], additionalProperties: false } as const;
    const typed = defineTool({
      name: 'typed_sum',
      inputSchema: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } as const,
      outputSchema: sumSchema,
      run: ({ a }) => ({ structuredContent: { sum: a } }),
    });
    assert.equal(typed.name, 'typed_sum');
    defineTool({
      name: 'wrong_key',
      inputSchema: { type: 'object' } as const,
      outputSchema: sumSchema,
      // @ts-expect-error `total` is not the `sum` the outputSchema requires
      run: () => ({ structuredContent: { total: 1 } }),
    });
    defineTool({
      name: 'text_only',
      inputSchema: { type: 'object' } as const,
      outputSchema: sumSchema,
      // @ts-expect-error a tool with an outputSchema must return structuredContent
      run: () => 'just text',
    });
    defineTool({ name: 'may_fail', inputSchema: { type: 'object' } as const, outputSchema: sumSchema, run: () => ({ content: [{ type: 'text', text: 'no' }], isError: true }) });
    const zodOut = z.object({ city: z.string(), days: z.number() });
    defineTool({ name: 'zod_out', inputSchema: z.object({}), outputSchema: zodOut, run: () => ({ structuredContent: { city: 'Oslo', days: 2 } }) });
    // @ts-expect-error days must be a number per the zod outputSchema
    defineTool({ name: 'zod_bad', inputSchema: z.object({}), outputSchema: zodOut, run: () => ({ structuredContent: { city: 'Oslo', days: 'two' } }) });
    defineTool({ name: 'untyped', inputSchema: { type: 'object' } as const, run: () => ({ structuredContent: { anything: true } }) });
  });

  it('converts zod 4 (Standard JSON Schema) once; tools/list shows exactly the schema that validates', async () => {
    const tool = defineTool({
      name: 'zod_tool',
      description: 'zod input',
      inputSchema: z.object({ city: z.string().min(2), days: z.number().int().min(1).max(7).optional() }).strict(),
      outputSchema: z.object({ forecast: z.string() }),
      run: ({ city, days }) => {
        expectType<Equal<typeof city, string>>();
        expectType<Equal<typeof days, number | undefined>>();
        return { structuredContent: { forecast: `${city}:${days ?? 1}` } };
      },
    });
    assert.deepEqual(tool.descriptor.inputSchema, {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', minimum: 1, maximum: 7 } },
      required: ['city'],
      additionalProperties: false,
    });
    const server = createServer({ name: 's', version: '1', tools: [tool] });
    const listed = (await callOver(server, rpc('tools/list'))).result as { tools: ToolDescriptor[] };
    assert.deepEqual(listed.tools[0]?.inputSchema, tool.descriptor.inputSchema);
    const ok = (await callOver(server, rpc('tools/call', { name: 'zod_tool', arguments: { city: 'Oslo', days: 3 } }))).result as Record<string, unknown>;
    assert.deepEqual(ok.structuredContent, { forecast: 'Oslo:3' });
    const bad = (await callOver(server, rpc('tools/call', { name: 'zod_tool', arguments: { city: 'O', extra: 1 } }))).result as Record<string, unknown>;
    assert.equal(bad.isError, true);
  });

  it('infers handler argument types from an `as const` JSON Schema literal', () => {
    defineTool({
      name: 'typed',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer' }, mode: { enum: ['fast', 'safe'] }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['a', 'mode'],
        additionalProperties: false,
      } as const,
      run: (args) => {
        expectType<Equal<typeof args.a, number>>();
        expectType<Equal<typeof args.mode, 'fast' | 'safe'>>();
        expectType<Equal<typeof args.tags, string[] | undefined>>();
        return 'ok';
      },
    });
  });

  it('refuses schemas that are not objects and Standard Schemas without JSON Schema conversion', () => {
    assert.throws(() => defineTool({ name: 'arr', inputSchema: [] as unknown as { type: 'object' }, run: () => 'x' }), new ToolDefinitionError('arr', 'inputSchema must be a JSON Schema object, got array'));
    const noJson = { '~standard': { version: 1, vendor: 'acme', validate: () => ({ value: {} }) } };
    assert.throws(() => defineTool({ name: 'std', inputSchema: noJson as unknown as { type: 'object' }, run: () => 'x' }), {
      name: 'ToolDefinitionError',
      message: 'Tool "std": inputSchema is a Standard Schema from "acme" that cannot convert to JSON Schema (no ~standard.jsonSchema)',
    });
    assert.throws(() => defineTool({ name: 'norun', inputSchema: { type: 'object' }, run: undefined as unknown as () => string }), { message: 'Tool "norun": run must be a function' });
  });
});

describe('checkToolDefinition', () => {
  it('accepts a valid definition', () => {
    assert.deepEqual(checkToolDefinition(descriptor({})), []);
  });

  it('checks the name: 1-128 chars of [A-Za-z0-9_.-]', () => {
    assert.deepEqual(checkToolDefinition(descriptor({ name: '' })), [{ tool: '', field: 'name', code: 'name-length', message: 'name must be 1 to 128 characters, got 0 characters' }]);
    assert.equal(checkToolDefinition(descriptor({ name: 'x'.repeat(129) }))[0]?.message, 'name must be 1 to 128 characters, got 129 characters');
    assert.deepEqual(checkToolDefinition(descriptor({ name: 'x'.repeat(128) })), []);
    assert.deepEqual(checkToolDefinition(descriptor({ name: 'get user,now' })), [{ tool: 'get user,now', field: 'name', code: 'name-characters', message: 'name may only use A-Z a-z 0-9 _ . - (found " ", ",")' }]);
    assert.deepEqual(checkToolDefinition(descriptor({ name: 'admin.tools.list-v2_x' })), []);
  });

  it('requires root type "object" on inputSchema', () => {
    assert.deepEqual(checkToolDefinition(descriptor({ inputSchema: { type: 'array' } })), [
      { tool: 'ok_tool', field: 'inputSchema', pointer: '/type', code: 'input-root-type', message: 'inputSchema root must have "type": "object", got "array"' },
    ]);
    assert.equal(checkToolDefinition(descriptor({ inputSchema: { properties: {} } }))[0]?.message, 'inputSchema root must have "type": "object", got no type');
    assert.equal(checkToolDefinition(descriptor({ inputSchema: null as unknown as Record<string, unknown> }))[0]?.code, 'input-not-object-schema');
  });

  it('requires both schemas to compile, naming the schema path', () => {
    const problems = checkToolDefinition(descriptor({ inputSchema: { type: 'object', properties: { a: { type: 'strnig' } } }, outputSchema: { $ref: '#/$defs/missing' } }));
    assert.deepEqual(problems.map((p) => [p.field, p.code]), [['inputSchema', 'schema-invalid'], ['outputSchema', 'schema-invalid']]);
    assert.match(problems[0]!.message, /^inputSchema invalid schema at \/properties\/a/);
  });

  it('with compile: false checks name, root type and x-mcp-header but leaves schema validity to the caller', () => {
    const broken = descriptor({
      name: 'bad name',
      inputSchema: { type: 'array', properties: { a: { type: 'strnig' }, n: { type: 'number', 'x-mcp-header': 'N' } } },
      outputSchema: { $ref: '#/$defs/missing' },
    });
    const compiled = checkToolDefinition(broken);
    const unchecked = checkToolDefinition(broken, { compile: false });
    assert.deepEqual(compiled.map((p) => p.code), ['name-characters', 'input-root-type', 'schema-invalid', 'x-mcp-header', 'schema-invalid']);
    assert.deepEqual(unchecked, compiled.filter((p) => p.code !== 'schema-invalid'));
    assert.deepEqual(checkToolDefinition(descriptor({ inputSchema: { type: 'object', properties: { a: { type: 'strnig' } } } }), { compile: false }), []);
    assert.deepEqual(checkToolDefinition(descriptor({ inputSchema: { type: 'object', properties: { a: { type: 'strnig' } } } }), { compile: true }).map((p) => p.code), ['schema-invalid']);
  });

  it('type-checks a descriptor parsed from untrusted JSON instead of throwing', () => {
    const wire = JSON.parse('{"name":42,"inputSchema":"object"}') as ToolDescriptor;
    for (const compile of [true, false]) {
      assert.deepEqual(checkToolDefinition(wire, { compile }), [
        { tool: '42', field: 'name', code: 'name-length', message: 'name must be 1 to 128 characters, got a number' },
        { tool: '42', field: 'inputSchema', pointer: '', code: 'input-not-object-schema', message: 'inputSchema must be a JSON Schema object' },
      ]);
    }
  });

  it('reports x-mcp-header problems', () => {
    const problems = checkToolDefinition(descriptor({ inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } }));
    assert.deepEqual(problems, [{
      tool: 'ok_tool', field: 'inputSchema', pointer: '/properties/n', code: 'x-mcp-header',
      message: 'x-mcp-header "N" at /properties/n is on a property of type "number"; only "string", "integer" or "boolean" may be mirrored',
    }]);
  });
});

describe('createServer refuses to start half-valid', () => {
  const good = defineTool({ name: 'good', inputSchema: { type: 'object' }, run: () => 'ok' });

  it('lists every problem of every tool, naming the tool', () => {
    const badName = defineTool({ name: 'bad name', inputSchema: { type: 'object' }, run: () => 'x' });
    const badRoot = defineTool({ name: 'bad_root', inputSchema: { type: 'string' }, run: () => 'x' });
    assert.throws(() => createServer({ name: 's', version: '1', tools: [good, badName, badRoot] }), (error: unknown) => {
      assert.ok(error instanceof ServerDefinitionError);
      assert.equal(error.message, [
        'Invalid tool definitions; the server was not created:',
        '- tool "bad name": name may only use A-Z a-z 0-9 _ . - (found " ")',
        '- tool "bad_root": inputSchema root must have "type": "object", got "string"',
      ].join('\n'));
      return true;
    });
  });

  it('refuses duplicate names, non-tools, and scopes without an authorize option', () => {
    const scoped = defineTool({ name: 'scoped', inputSchema: { type: 'object' }, scopes: ['admin'], run: () => 'x' });
    assert.throws(() => createServer({ name: 's', version: '1', tools: [good, good, { name: 'fake' } as never, scoped] }), {
      name: 'ServerDefinitionError',
      message: [
        'Invalid tool definitions; the server was not created:',
        '- tool "good": name is used by more than one tool (names must be unique)',
        '- tool "tools[2]": tools[2] is not a tool created by defineTool()',
        '- tool "scoped": requires scopes "admin" but the server has no authorize option, so no caller could ever hold them',
      ].join('\n'),
    });
    assert.doesNotThrow(() => createServer({ name: 's', version: '1', tools: [scoped], authorize: () => ({ scopes: [] }) }));
  });

  it('validates server options', () => {
    assert.throws(() => createServer({ name: '', version: '1', tools: [] }), { message: 'createServer: name must be a non-empty string' });
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], pageSize: 0 }), { message: 'createServer: pageSize must be a positive integer' });
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], listTtlMs: -1 }), { message: 'createServer: listTtlMs must be a non-negative integer' });
  });

  it('serves an empty tool list', async () => {
    const server = createServer({ name: 'empty', version: '1', tools: [] });
    const list = (await callOver(server, rpc('tools/list'))).result as Record<string, unknown>;
    assert.deepEqual(list.tools, []);
    assert.equal('nextCursor' in list, false);
  });
});
