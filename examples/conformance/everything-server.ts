// One file over ~400 lines on purpose: the conformance suite drives one server, and its fixtures read
// best as one catalog, each beside the others it is tested with.
/**
 * The "everything server" the official MCP conformance suite drives
 * (the scenarios of @modelcontextprotocol/conformance are the contract; see README.md here). Written only with Toolwright's public API:
 * each fixture below is an ordinary tool, resource or prompt definition.
 */
import {
  audio,
  completeFrom,
  createServer,
  defineResource,
  defineResourceTemplate,
  definePrompt,
  defineTool,
  elicitInput,
  embeddedResource,
  image,
  listRootsInput,
  resourceLink,
  sampleInput,
  text,
} from '../../src/index.js';
import type { McpServer, ServerOptions, ToolContext, ToolRunResult } from '../../src/index.js';
import { solidPng, toneWav } from './media.js';
import { taskFixtures } from './task-fixtures.js';

/** Options of {@link createEverythingServer}. */
export interface EverythingServerOptions {
  /** Shown in `serverInfo.description` so a runner can tell its own listener from another one. */
  instanceId?: string;
  /** Passed through (tests use a fixed key to forge and tamper states). */
  requestStateSecret?: ServerOptions['requestStateSecret'];
  /** Passed through: who is calling (e.g. a caller holding the approver scope, so `test_approval` asks it). */
  authorize?: ServerOptions['authorize'];
}

const PNG = solidPng(8, [255, 0, 0]);
const WAV = toneWav(100);
const NO_ARGS = { type: 'object', additionalProperties: false } as const;
const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

function samplingText(result: { content: unknown }): string {
  const content = Array.isArray(result.content) ? result.content[0] : result.content;
  const value = (content as { type?: unknown; text?: unknown } | undefined);
  return value?.type === 'text' && typeof value.text === 'string' ? value.text : '(non-text sample)';
}

/** The JSON Schema 2020-12 keywords the json-schema-2020-12 scenario expects preserved verbatim. */
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;

/** Creates the server (not yet listening). */
export function createEverythingServer(options: EverythingServerOptions = {}): McpServer {
  // Tools that announce list changes need the server they belong to; it exists once createServer returns.
  let server: McpServer | undefined;

  const tools = [
    defineTool({
      name: 'test_simple_text',
      description: 'Returns a fixed text block.',
      inputSchema: NO_ARGS,
      run: () => 'This is a simple text response for testing.',
    }),
    defineTool({
      name: 'test_image_content',
      description: 'Returns an 8x8 red PNG image.',
      inputSchema: NO_ARGS,
      run: () => ({ content: [image(PNG, 'image/png')] }),
    }),
    defineTool({
      name: 'test_audio_content',
      description: 'Returns a 100 ms WAV tone.',
      inputSchema: NO_ARGS,
      run: () => ({ content: [audio(WAV, 'audio/wav')] }),
    }),
    defineTool({
      name: 'test_embedded_resource',
      description: 'Returns an embedded text resource.',
      inputSchema: NO_ARGS,
      run: () => ({
        content: [embeddedResource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' })],
      }),
    }),
    defineTool({
      name: 'test_multiple_content_types',
      description: 'Returns text, an image, an embedded resource and a resource link.',
      inputSchema: NO_ARGS,
      run: () => ({
        content: [
          text('Multiple content types test:'),
          image(PNG, 'image/png'),
          embeddedResource({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) }),
          resourceLink({ uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain' }),
        ],
      }),
    }),
    defineTool({
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100, about 50 ms apart, when the call carries a progressToken.',
      inputSchema: NO_ARGS,
      run: async (_args, ctx) => {
        ctx.progress(0, 100);
        await sleep(50, ctx.signal);
        ctx.progress(50, 100);
        await sleep(50, ctx.signal);
        ctx.progress(100, 100);
        return 'Progress test completed.';
      },
    }),
    defineTool({
      name: 'test_error_handling',
      description: 'Always fails; the failure comes back as an isError result.',
      inputSchema: NO_ARGS,
      run: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
    defineTool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: JSON_SCHEMA_2020_12_INPUT,
      run: (args) => ({ content: [text(`Received: ${JSON.stringify(args)}`)] }),
    }),
    defineTool({
      name: 'test_x_mcp_header',
      description: 'Echoes the region; clients mirror it into the Mcp-Param-Region header.',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', description: 'Deployment region', 'x-mcp-header': 'Region' } },
        required: ['region'],
        additionalProperties: false,
      } as const,
      run: ({ region }) => `Region: ${region}`,
    }),
    defineTool({
      name: 'test_structured_output',
      description: 'Adds two integers and returns the sum as structured content (with an outputSchema).',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer', minimum: -1000, maximum: 1000 }, b: { type: 'integer', minimum: -1000, maximum: 1000 } },
        required: ['a', 'b'],
        additionalProperties: false,
      } as const,
      outputSchema: {
        type: 'object',
        properties: { sum: { type: 'integer' } },
        required: ['sum'],
        additionalProperties: false,
      } as const,
      run: ({ a, b }) => ({ structuredContent: { sum: a + b } }),
    }),
    defineTool({
      name: 'test_approval',
      description: 'Needs human approval (elicitation via input-required) before it runs.',
      inputSchema: { type: 'object', properties: { action: { type: 'string', maxLength: 100 } }, required: ['action'], additionalProperties: false } as const,
      approval: ({ action }) => ({ message: `Allow the server to ${action}?` }),
      run: ({ action }) => `Approved and done: ${action}`,
    }),
    defineTool({
      name: 'test_missing_capability',
      description: 'Needs the client to declare sampling; without it the call fails with -32021.',
      inputSchema: NO_ARGS,
      requiredClientCapabilities: { sampling: {} },
      run: () => 'The client declared sampling.',
    }),
    defineTool({
      name: 'test_streaming_elicitation',
      description: 'Returns a plain result; it never sends a request to the client on the response stream.',
      inputSchema: NO_ARGS,
      run: () => 'No server-to-client request was sent; ask through input-required instead.',
    }),
    defineTool({
      name: 'test_logging_tool',
      description: 'Logs three messages; they are sent only when the request sets a logLevel.',
      inputSchema: NO_ARGS,
      run: async (_args, ctx) => {
        ctx.log('info', 'Tool execution started');
        await sleep(20, ctx.signal);
        ctx.log('info', 'Tool processing data');
        await sleep(20, ctx.signal);
        ctx.log('info', 'Tool execution completed');
        return 'Logging test completed.';
      },
    }),
    defineTool({
      name: 'test_trigger_tool_change',
      description: 'Announces a tool list change to open subscriptions/listen streams.',
      inputSchema: NO_ARGS,
      run: () => `Notified ${server?.notifyListChanged('tools') ?? 0} subscription(s).`,
    }),
    defineTool({
      name: 'test_trigger_prompt_change',
      description: 'Announces a prompt list change to open subscriptions/listen streams.',
      inputSchema: NO_ARGS,
      run: () => `Notified ${server?.notifyListChanged('prompts') ?? 0} subscription(s).`,
    }),
    defineTool({
      name: 'test_input_required_result_elicitation',
      description: 'Asks the user for their name (elicitation), then greets them.',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => {
        const got = ctx.inputs.require({ user_name: elicitInput({ message: 'What is your name?', requestedSchema: NAME_SCHEMA }) });
        if (!got.ready) return got.result;
        const answer = got.responses.user_name;
        if (answer.action !== 'accept') return `The user chose to ${answer.action}.`;
        return `Hello, ${String(answer.content?.name)}!`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_sampling',
      description: 'Asks the client model a question (sampling), then returns its answer.',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => {
        const got = ctx.inputs.require({
          capital_question: sampleInput({
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          }),
        });
        if (!got.ready) return got.result;
        return `Sampling response: ${samplingText(got.responses.capital_question)}`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_list_roots',
      description: 'Asks the client for its roots, then lists them.',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => {
        const got = ctx.inputs.require({ client_roots: listRootsInput() });
        if (!got.ready) return got.result;
        return `Client roots: ${got.responses.client_roots.roots.map((r) => r.uri).join(', ') || '(none)'}`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_request_state',
      description: 'Asks for confirmation with a sealed requestState and reports "state-ok" once it verified it.',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => confirmWithState(ctx),
    }),
    defineTool({
      name: 'test_input_required_result_tampered_state',
      description: 'Like the request-state tool; a tampered requestState is refused with -32602.',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => confirmWithState(ctx),
    }),
    defineTool({
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks for a name (elicitation), a greeting (sampling) and the roots in one round.',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => {
        const got = ctx.inputs.require({
          user_name: elicitInput({ message: 'What is your name?', requestedSchema: NAME_SCHEMA }),
          greeting: sampleInput({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }),
          client_roots: listRootsInput(),
        });
        if (!got.ready) return got.result;
        const { user_name, greeting, client_roots } = got.responses;
        return `${samplingText(greeting)} ${String(user_name.content?.name)} (roots: ${client_roots.roots.length})`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_multi_round',
      description: 'Asks two questions in two rounds; the first answer travels in the sealed requestState.',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => {
        const first = ctx.inputs.require({
          step1: elicitInput({ message: 'Step 1: What is your name?', requestedSchema: NAME_SCHEMA }),
        });
        if (!first.ready) return first.result;
        const second = ctx.inputs.require({
          step2: elicitInput({
            message: 'Step 2: What is your favorite color?',
            requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
          }),
        });
        if (!second.ready) return second.result;
        return `${String(first.responses.step1.content?.name)} likes ${String(second.responses.step2.content?.color)}.`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_capabilities',
      description: 'Asks for elicitation and sampling, but only for what the client declared.',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => {
        const got = ctx.inputs.require(
          {
            user_name: elicitInput({ message: 'What is your name?', requestedSchema: NAME_SCHEMA }),
            greeting: sampleInput({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }),
          },
          { onlyDeclared: true },
        );
        if (!got.ready) return got.result;
        return `Received: ${Object.keys(got.responses).join(', ')}`;
      },
    }),
    // 2025-11-25 fixtures. On the legacy wire the input requests become server-to-client requests
    // on the call's stream; on 2026-07-28 they are ordinary input-required results.
    defineTool({
      name: 'test_tool_with_logging',
      description: 'Logs three info messages about 50 ms apart (2025-11-25 logging scenario).',
      inputSchema: NO_ARGS,
      run: async (_args, ctx) => {
        ctx.log('info', 'Tool execution started');
        await sleep(50, ctx.signal);
        ctx.log('info', 'Tool processing data');
        await sleep(50, ctx.signal);
        ctx.log('info', 'Tool execution completed');
        return 'Logging test completed.';
      },
    }),
    defineTool({
      name: 'test_sampling',
      description: 'Asks the client model to answer the prompt (sampling).',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'], additionalProperties: false } as const,
      run: ({ prompt }, ctx) => {
        const got = ctx.inputs.require({ answer: sampleInput({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 }) });
        if (!got.ready) return got.result;
        return `LLM response: ${samplingText(got.responses.answer)}`;
      },
    }),
    defineTool({
      name: 'test_elicitation',
      description: 'Asks the user for a username and email (elicitation).',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false } as const,
      run: ({ message }, ctx) => {
        const got = ctx.inputs.require({
          user: elicitInput({
            message,
            requestedSchema: {
              type: 'object',
              properties: {
                username: { type: 'string', description: "User's response" },
                email: { type: 'string', description: "User's email address" },
              },
              required: ['username', 'email'],
            },
          }),
        });
        if (!got.ready) return got.result;
        const answer = got.responses.user;
        return `User response: <action: ${answer.action}, content: ${JSON.stringify(answer.content ?? {})}>`;
      },
    }),
    defineTool({
      name: 'test_elicitation_sep1034_defaults',
      description: 'Elicitation whose fields carry default values of every primitive type (SEP-1034).',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => {
        const got = ctx.inputs.require({
          profile: elicitInput({
            message: 'Please review and update the form fields with defaults',
            requestedSchema: {
              type: 'object',
              properties: {
                name: { type: 'string', description: 'User name', default: 'John Doe' },
                age: { type: 'integer', description: 'User age', default: 30 },
                score: { type: 'number', description: 'User score', default: 95.5 },
                status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
                verified: { type: 'boolean', description: 'Verification status', default: true },
              },
              required: [],
            },
          }),
        });
        if (!got.ready) return got.result;
        const answer = got.responses.profile;
        return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
      },
    }),
    defineTool({
      name: 'test_elicitation_sep1330_enums',
      description: 'Elicitation using all five enum forms (SEP-1330).',
      inputSchema: NO_ARGS,
      run: (_args, ctx) => {
        const got = ctx.inputs.require({
          choices: elicitInput({
            message: 'Please select options from the enum fields',
            requestedSchema: {
              type: 'object',
              properties: {
                untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
                titledSingle: {
                  type: 'string',
                  description: 'Select one option with titles',
                  oneOf: [
                    { const: 'value1', title: 'First Option' },
                    { const: 'value2', title: 'Second Option' },
                    { const: 'value3', title: 'Third Option' },
                  ],
                },
                legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
                untitledMulti: { type: 'array', description: 'Select multiple options', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
                titledMulti: {
                  type: 'array',
                  description: 'Select multiple options with titles',
                  items: {
                    anyOf: [
                      { const: 'value1', title: 'First Choice' },
                      { const: 'value2', title: 'Second Choice' },
                      { const: 'value3', title: 'Third Choice' },
                    ],
                  },
                },
              },
              required: [],
            },
          }),
        });
        if (!got.ready) return got.result;
        const answer = got.responses.choices;
        return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
      },
    }),
  ];

  const resources = [
    defineResource({
      uri: 'test://static-text',
      name: 'static-text',
      description: 'A static text resource.',
      mimeType: 'text/plain',
      ttlMs: 60_000,
      read: () => 'This is the content of the static text resource.',
    }),
    defineResource({
      uri: 'test://static-binary',
      name: 'static-binary',
      description: 'A static binary resource (an 8x8 PNG).',
      mimeType: 'image/png',
      ttlMs: 60_000,
      read: () => PNG,
    }),
    defineResource({
      uri: 'test://watched-resource',
      name: 'watched-resource',
      description: 'A resource clients may subscribe to.',
      mimeType: 'text/plain',
      read: () => `Watched resource content at ${new Date().toISOString()}`,
    }),
    defineResourceTemplate({
      uriTemplate: 'test://template/{id}/data',
      name: 'template-data',
      description: 'Data for any id.',
      mimeType: 'application/json',
      complete: { id: completeFrom(['123', '456', '789']) },
      read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    }),
  ];

  const prompts = [
    definePrompt({
      name: 'test_simple_prompt',
      description: 'A simple prompt without arguments.',
      get: () => [{ role: 'user', content: text('This is a simple prompt for testing.') }],
    }),
    definePrompt({
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two required arguments.',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true, complete: completeFrom(['paris', 'park', 'party']) },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      get: ({ arg1, arg2 }) => [{ role: 'user', content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
    }),
    definePrompt({
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt embedding the resource named by resourceUri.',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
      get: ({ resourceUri }) => [
        { role: 'user', content: embeddedResource({ uri: resourceUri as string, mimeType: 'text/plain', text: 'Embedded resource content for testing.' }) },
        { role: 'user', content: text('Please process the embedded resource above.') },
      ],
    }),
    definePrompt({
      name: 'test_prompt_with_image',
      description: 'A prompt with an image.',
      get: () => [
        { role: 'user', content: image(PNG, 'image/png') },
        { role: 'user', content: text('Please analyze the image above.') },
      ],
    }),
    definePrompt({
      name: 'test_input_required_result_prompt',
      description: 'Asks the user for context (elicitation) before building the prompt.',
      get: (_args, ctx) => {
        const got = ctx.inputs.require({
          user_context: elicitInput({
            message: 'What context should the prompt use?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          }),
        });
        if (!got.ready) return got.result;
        return [{ role: 'user', content: text(`Use this context: ${String(got.responses.user_context.content?.context)}`) }];
      },
    }),
  ];

  server = createServer({
    name: 'toolwright-everything-server',
    version: '1.0.0',
    description: options.instanceId === undefined ? 'Toolwright conformance everything server' : `Toolwright conformance everything server (instance ${options.instanceId})`,
    instructions: 'Fixture server for the MCP conformance suite; every tool, resource and prompt is a test fixture.',
    tools: [...tools, ...taskFixtures()],
    resources,
    prompts,
    listChanged: ['tools', 'prompts'],
    requestStateSecret: options.requestStateSecret,
    ...(options.authorize !== undefined ? { authorize: options.authorize } : {}),
    legacyWire: true,
  });
  return server;
}

/** Shared by the request-state and tampered-state tools: the round-1 data must come back intact. */
function confirmWithState(ctx: ToolContext): ToolRunResult {
  const got = ctx.inputs.require(
    { confirm: elicitInput({ message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) },
    { data: { issuedFor: ctx.toolName }, requireState: true },
  );
  if (!got.ready) return got.result;
  const sealed = got.data as { issuedFor?: unknown } | undefined;
  if (sealed?.issuedFor !== ctx.toolName) return { content: [text('requestState did not carry the expected data')], isError: true };
  return `state-ok: confirmed=${String(got.responses.confirm.content?.ok)}`;
}
