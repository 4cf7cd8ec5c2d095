// Toolwright with an `authorize` option (the `auth` suite), started through the built package's
// public `createServer(...).listen()`. Variants:
//   static    staticTokenAuthorizer({ token, auth }) accepting the fixture's one token
//   jwt       jwtAuthorizer({ jwks }) with the fixture's local key set (ES256), no network
//   views     the views catalog (100 tools, 99 of them with visibleTo from visibleWhen) and an
//             authorize mapping each of the 100 caller tokens to its own subject, tenant and scopes
//   one-view  the same 100 tools without visibleTo, the same authorize: every caller sees one list
// `node toolwright-auth.js --auth-file <fixture.json> --variant <v> --port 0 --tools <n>`
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { catalogOf, fillerText, sumText } from '../shared/catalog.js';
import { gateOf, VIEW_CALLERS, viewCaller, viewToken, type AuthFixture } from '../shared/auth-fixtures.js';
import { announceReady, chooseVariant, exitOnSignal, parseServerArgs } from '../shared/server-args.js';

interface AuthInfoInit {
  scopes: string[];
  subject?: string;
  clientId?: string;
  extra?: Record<string, unknown>;
}

type Authorize = (request: { transport: string; bearerToken: string | undefined }) => AuthInfoInit | null | Promise<AuthInfoInit | null>;
type VisibleTo = (viewer: unknown) => boolean;

/** The part of Toolwright's public API this program drives. */
interface ToolwrightAuthModule {
  defineTool(definition: {
    name: string; description: string; inputSchema: unknown; visibleTo?: VisibleTo;
    run: (args: Record<string, unknown>) => { content: { type: 'text'; text: string }[]; structuredContent?: unknown };
  }): unknown;
  createServer(options: { name: string; version: string; tools: unknown[]; authorize: Authorize }): { listen(options: { port: number; host: string }): unknown };
  staticTokenAuthorizer(options: { token: string; auth: AuthInfoInit }): Authorize;
  jwtAuthorizer(options: { issuer: string; resource: string; jwks: { keys: Record<string, unknown>[] } }): Authorize;
  visibleWhen(rules: { tenants?: readonly string[]; scopes?: readonly string[] }): VisibleTo;
}

/** Splits `--auth-file <path>` off the common server arguments. */
function takeAuthFile(argv: readonly string[]): { authFile: string; rest: string[] } {
  const rest = [...argv];
  const at = rest.indexOf('--auth-file');
  const authFile = at >= 0 ? rest[at + 1] : undefined;
  if (authFile === undefined) throw new Error('toolwright-auth needs --auth-file <fixture.json> (written by bench/lib/suites/auth.ts)');
  rest.splice(at, 2);
  return { authFile, rest };
}

/** The views variants' authorize: each of the 100 caller tokens is a different subject, tenant and scope set. */
function callerMap(): Authorize {
  const callers = new Map<string, AuthInfoInit>();
  for (let i = 0; i < VIEW_CALLERS; i++) callers.set(viewToken(i), viewCaller(i));
  return ({ transport, bearerToken }) => (transport === 'http' && bearerToken !== undefined ? callers.get(bearerToken) ?? null : null);
}

const { authFile, rest } = takeAuthFile(process.argv.slice(2));
const args = parseServerArgs(rest);
const variant = chooseVariant(args, ['static', 'jwt', 'views', 'one-view']);
const fixture = JSON.parse(readFileSync(authFile, 'utf8')) as AuthFixture;
// Compiled into .cache/bench/servers (the bench) or run from bench/servers through tsx (the harness tests).
const distEntry = ['../../../dist/index.js', '../../dist/index.js'].map((relative) => fileURLToPath(new URL(relative, import.meta.url))).find((path) => existsSync(path));
if (distEntry === undefined) throw new Error('dist/index.js not found: build the package first (npm run build)');
const toolwright = (await import(pathToFileURL(distEntry).href)) as ToolwrightAuthModule;

const gated = variant === 'views';
const tools = catalogOf(args.tools).map((tool, index) => {
  const gate = gated ? gateOf(index) : undefined;
  return toolwright.defineTool({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(gate === undefined ? {} : { visibleTo: toolwright.visibleWhen(gate) }),
    run: tool.name === 'calculate_sum'
      ? (input) => {
          const sum = (input['a'] as number) + (input['b'] as number);
          return { content: [{ type: 'text', text: sumText(sum) }], structuredContent: { sum } };
        }
      : () => ({ content: [{ type: 'text', text: fillerText(tool.name) }] }),
  });
});

const authorize: Authorize =
  variant === 'static' ? toolwright.staticTokenAuthorizer({ token: fixture.staticToken, auth: { subject: 'bench-operator', clientId: 'toolwright-bench', scopes: ['arm:read'] } })
  : variant === 'jwt' ? toolwright.jwtAuthorizer({ issuer: fixture.issuer, resource: fixture.resource, jwks: fixture.jwks })
  : callerMap();

const server = toolwright.createServer({ name: `toolwright-auth-${variant}-http`, version: '1.0.0', tools, authorize });
// listen() on port 0 would not say which port it took; pick a free one the way toolwright-http does.
const { createServer: createNetServer } = await import('node:net');
const port = args.port !== 0 ? args.port : await new Promise<number>((resolve, reject) => {
  const probe = createNetServer();
  probe.once('error', reject);
  probe.listen(0, args.host, () => {
    const address = probe.address();
    const free = typeof address === 'object' && address !== null ? address.port : 0;
    probe.close(() => resolve(free));
  });
});
await server.listen({ port, host: args.host });
exitOnSignal();
announceReady(port);
