/**
 * The official MCP conformance suite's client program:
 *   conformance client --command "node --import tsx examples/conformance/client.ts" --scenario S
 * The harness appends the scenario server's URL as the last argument and sets
 * MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION (the revision to speak: dated ones
 * through 2025-11-25 use initialize, 2026-07-28 is stateless) and, for some scenarios,
 * MCP_CONFORMANCE_CONTEXT (JSON, e.g. `toolCalls` to make).
 *
 * It does what an ordinary host does with `toolwright/client`: list the tools, then call each usable
 * one (or the calls the context names), answering elicitation (accepting with the schema's
 * defaults), sampling and roots requests. For auth/* scenarios it runs the OAuth flow with
 * `createOAuthClient`; the "browser" follows the authorization endpoint's redirect without a user
 * (the scenario's authorization server approves at once). Exit 0 when the client did its part (a JSON-RPC error
 * from the server is the server's answer), 1 when a call broke on the client's side.
 */
import { connect, createOAuthClient, McpClientError } from '../../src/client/index.js';
import type { ClientOptions, InputRequest, McpClient, OAuthClient, ToolDescriptor } from '../../src/client/index.js';

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2026-07-28';
const context = parseContext(process.env.MCP_CONFORMANCE_CONTEXT);

function parseContext(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function log(line: string): void {
  process.stderr.write(`conformance client [${scenario}]: ${line}\n`);
}

/** A value for a schema, as a user accepting a form would give: its default, else a plain example. */
function exampleFor(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return 'example';
  const s = schema as Record<string, unknown>;
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('const' in s) return s.const;
  switch (s.type) {
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return objectFor(s, false);
    default:
      return 'example';
  }
}

/** An object for an object schema: every property with a default, and every required one. */
function objectFor(schema: Record<string, unknown>, all: boolean): Record<string, unknown> {
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const hasDefault = typeof property === 'object' && property !== null && 'default' in property;
    if (all || hasDefault || required.has(name)) result[name] = exampleFor(property);
  }
  return result;
}

/** Answers one input request the way an accepting user and a stub model would. */
function answer(request: InputRequest): unknown {
  switch (request.method) {
    case 'elicitation/create': {
      const schema = request.params.requestedSchema;
      return { action: 'accept', content: typeof schema === 'object' && schema !== null ? objectFor(schema as Record<string, unknown>, true) : {} };
    }
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'This is a sampled answer from the conformance client.' }, model: 'conformance-stub', stopReason: 'endTurn' };
    case 'roots/list':
      return { roots: [] };
  }
}

function callsFromContext(): ToolCall[] | undefined {
  const calls = context.toolCalls;
  if (!Array.isArray(calls)) return undefined;
  return calls.filter((c): c is ToolCall => typeof c === 'object' && c !== null && typeof (c as ToolCall).name === 'string').map((c) => ({ name: c.name, arguments: c.arguments ?? {} }));
}

function callsFromListing(tools: readonly ToolDescriptor[]): ToolCall[] {
  if (scenario === 'json-schema-2020-12-preservation') return schemaEcho(tools);
  return tools.map((tool) => ({ name: tool.name, arguments: objectFor(tool.inputSchema as Record<string, unknown>, false) }));
}

/**
 * json-schema-2020-12-preservation: the scenario's echo tool gets the focal tool's inputSchema exactly
 * as this client listed it, so the harness sees which 2020-12 keywords (`$schema`, `$defs`, `$anchor`,
 * `allOf`/`anyOf`, `if`/`then`/`else`, `additionalProperties`) survived the client's parsing.
 */
function schemaEcho(tools: readonly ToolDescriptor[]): ToolCall[] {
  const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
  if (focal === undefined) {
    log('json-schema-2020-12-preservation: the focal tool json_schema_2020_12_tool was not listed');
    return [];
  }
  return [{ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } }];
}

function options(): ClientOptions {
  const legacy = version !== '2026-07-28';
  // sse-retry measures when the client's first GET arrives: a listening GET stream (opened for
  // declared capabilities) would be mistaken for the reconnection, so that scenario declares none.
  const capabilities = scenario === 'sse-retry' || scenario === 'initialize' || scenario === 'tools_call' ? {} : { roots: {}, sampling: {}, elicitation: legacy ? {} : { form: {} } };
  return {
    clientInfo: { name: 'toolwright-conformance-client', version: '0.1.0' },
    capabilities,
    era: legacy ? 'legacy' : 'modern',
    ...(legacy ? { legacyProtocolVersion: version } : {}),
    timeoutMs: 20_000,
    onWarning: (warning) => log(`warning: ${warning.message}`),
    onServerRequest: (request) => answer(request),
  };
}

async function run(client: McpClient): Promise<boolean> {
  if (version === '2026-07-28') {
    const info = await client.discover().catch((error: unknown) => {
      log(`server/discover failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
    if (info !== undefined) log(`server/discover: ${info.serverInfo?.name ?? '(unnamed)'} supports ${info.supportedVersions.join(', ')}`);
  }
  const listing = await client.listTools();
  log(`tools/list: ${listing.tools.length} usable, ${listing.excluded.length} excluded (${client.era} era, ${client.protocolVersion})`);
  let ok = true;
  for (const call of callsFromContext() ?? callsFromListing(listing.tools)) {
    try {
      const result = await client.callTool(call.name, call.arguments, {
        onInputRequired: (requests) => Object.fromEntries(Object.entries(requests).map(([key, request]) => [key, answer(request)])),
      });
      log(`tools/call ${call.name}: ${result.isError === true ? 'isError' : 'ok'}`);
    } catch (error) {
      // A JSON-RPC error is the server's answer (some scenario servers implement no tools/call); the client worked.
      // A tool the client excluded (invalid x-mcp-header) is not called at all.
      if (!(error instanceof McpClientError) || !['rpc', 'tool_excluded'].includes(error.kind)) ok = false;
      log(`tools/call ${call.name} failed: ${error instanceof McpClientError ? `${error.kind}: ${error.message}` : String(error)}`);
    }
  }
  return ok;
}

/** The conformance suite's client ID metadata document URL (its basic-cimd scenario expects exactly this). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

function contextString(name: string): string | undefined {
  const value = context[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The OAuth client an auth/* scenario needs: client credentials, pre-registered, or the user flow. */
function oauthFor(): OAuthClient | undefined {
  if (!scenario.startsWith('auth/')) return undefined;
  const onStep = (line: string): void => log(`oauth: ${line}`);
  const clientId = contextString('client_id');
  const privateKeyPem = contextString('private_key_pem');
  const clientSecret = contextString('client_secret');
  if (scenario.startsWith('auth/client-credentials-') && clientId !== undefined) {
    const credentials = privateKeyPem !== undefined ? { clientId, privateKeyPem, algorithm: contextString('signing_algorithm') ?? 'ES256' } : { clientId, clientSecret: clientSecret ?? '' };
    return createOAuthClient({ clientCredentials: credentials, onStep });
  }
  return createOAuthClient({
    ...(clientId !== undefined ? { clientId, ...(clientSecret !== undefined ? { clientSecret } : {}), ...(contextString('issuer') !== undefined ? { clientIdIssuer: contextString('issuer') } : {}) } : {}),
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: 'toolwright-conformance-client',
    redirectUri: 'http://127.0.0.1:3000/callback',
    onStep,
    // The "browser": ask the authorization endpoint, and read where it sends the user back.
    authorize: async ({ url: authorizationUrl, signal }) => {
      const response = await fetch(authorizationUrl, { redirect: 'manual', signal });
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (location === null) throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
      return location;
    },
  });
}

async function main(): Promise<number> {
  if (url === undefined || !/^https?:\/\//.test(url)) {
    log(`the last argument must be the server URL, got ${JSON.stringify(url)}`);
    return 2;
  }
  const oauth = oauthFor();
  const client = connect(oauth === undefined ? url : { url, oauth }, options());
  try {
    return (await run(client)) ? 0 : 1;
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await client.close();
  }
}

process.exitCode = await main();
