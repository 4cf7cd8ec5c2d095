// `npm run bench:alloc`: bytes allocated per tools/call in process, and where, for the request
// shapes the HTTP rows of `npm run bench` measure. Allocation drives the garbage collector and how
// far V8 grows the young generation under load (peak RSS), and unlike req/s it barely moves on a
// busy machine: a regression here shows on any machine. Measured with V8's sampling heap profiler
// (objects later collected included), over calls made after a warm-up, through the compiled
// package (dist/, `npm run build`) as users run it. No targets; issue 31 asks where time goes.
//
//   npm run bench:alloc                  writes bench/results/allocations.md
//   npm run bench:alloc -- --calls 20000 --no-write
//
// What is not measured: node:http's own objects (IncomingMessage, ServerResponse, socket buffers:
// about 8 KB more per request on Node 20), since a message here goes straight to the dispatcher.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { intOption } from './lib/int-option.js';
import { AUDIT_FLUSH_WITHIN_MS } from './servers/toolwright-app.js';
import { catalogOf, sumText } from './shared/catalog.js';
import { callSumRequest, httpHeadersFor, SUM_ARGS } from './shared/mcp.js';

const calls = intOption('--calls', 5000);
const write = !process.argv.includes('--no-write');
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const distEntry = join(ROOT, 'dist', 'index.js');
if (!existsSync(distEntry)) throw new Error('dist/index.js not found: run npm run build first');

interface InboundLike {
  body: Uint8Array;
  transport: 'http';
  header: (name: string) => string | undefined;
  readonly signal: AbortSignal;
  isAborted(): boolean;
  notify(): void;
}
interface ReplyLike { status: number; body: string | undefined; headers?: Record<string, string> }
interface ServerLike { handleMessage(message: InboundLike): Promise<ReplyLike> }
interface MiddlewareLike { open?(): void; close?(): void }
interface ToolwrightModule {
  defineTool(definition: { name: string; description: string; inputSchema: unknown; run: (args: Record<string, number>) => unknown }): unknown;
  createServer(options: { name: string; version: string; tools: unknown[]; use?: unknown[]; authorize?: unknown }): ServerLike;
  rateLimit(options: { capacity: number; refillPerSecond: number }): MiddlewareLike;
  auditLog(options: { path: string; fsync: 'never'; flushWithinMs: number; key: string; head: string }): MiddlewareLike;
  resultBudget(options: { maxTokens: number }): MiddlewareLike;
  staticTokenAuthorizer(options: { token: string; auth: { subject: string; scopes: string[] } }): unknown;
}
const toolwright = (await import(pathToFileURL(distEntry).href)) as ToolwrightModule;

const TOKEN = 'alloc-bench-token-0123456789abcdefghijklmnop';
// The same request bytes and headers as the HTTP rows of `npm run bench` (bench/shared/mcp.ts).
const MODERN_REQUEST = callSumRequest(10);
const MODERN_HEADERS: Record<string, string> = { host: '127.0.0.1:3000', ...httpHeadersFor(MODERN_REQUEST), authorization: `Bearer ${TOKEN}` };

// One body per shape, made once: what a transport hands over is bytes it already has, so the
// figures leave out the building of requests. Calls run one after another, so one id serves.
const MODERN_CALL = Buffer.from(JSON.stringify(MODERN_REQUEST));
const LEGACY_CALL = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'calculate_sum', arguments: SUM_ARGS } }));

function message(body: string | Buffer, headers: Record<string, string>): InboundLike {
  let controller: AbortController | undefined;
  return {
    body: typeof body === 'string' ? Buffer.from(body) : body,
    transport: 'http',
    header: (name) => headers[name],
    get signal() {
      return (controller ??= new AbortController()).signal;
    },
    isAborted: () => false,
    notify() {},
  };
}

const dirs: string[] = [];
const opened: MiddlewareLike[] = [];
function serverWith(variant: string): ServerLike {
  // The bench catalog's calculate_sum, answering as the HTTP rows' servers do (toolwright-app.ts).
  const tools = catalogOf(1).map((tool) => toolwright.defineTool({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    run: (args) => {
      const sum = args['a']! + args['b']!;
      return { content: [{ type: 'text', text: sumText(sum) }], structuredContent: { sum } };
    },
  }));
  const use: MiddlewareLike[] = [];
  if (variant === 'noop') use.push({ name: 'noop', handle: (_call: unknown, next: () => Promise<unknown>) => next() } as MiddlewareLike);
  if (variant === 'chain') {
    const dir = mkdtempSync(join(tmpdir(), 'tw-alloc-'));
    const keyDir = mkdtempSync(join(tmpdir(), 'tw-alloc-key-'));
    dirs.push(dir, keyDir);
    use.push(
      toolwright.rateLimit({ capacity: 1e9, refillPerSecond: 1e9 }),
      toolwright.auditLog({ path: join(dir, 'calls.jsonl'), fsync: 'never', flushWithinMs: AUDIT_FLUSH_WITHIN_MS, key: join(keyDir, 'audit.key'), head: join(keyDir, 'calls.head') }),
      toolwright.resultBudget({ maxTokens: 4096 }),
    );
  }
  const authorize = variant === 'bearer' ? toolwright.staticTokenAuthorizer({ token: TOKEN, auth: { subject: 'bench', scopes: [] } }) : undefined;
  const server = toolwright.createServer({ name: 'alloc-bench', version: '1.0.0', tools, ...(use.length > 0 ? { use } : {}), ...(authorize !== undefined ? { authorize } : {}) });
  for (const middleware of use) middleware.open?.();
  opened.push(...use);
  return server;
}

/** A variant's call, checked once: every measured call must be the real answer. */
async function caller(variant: string): Promise<() => Promise<ReplyLike>> {
  const server = serverWith(variant);
  if (variant !== 'legacy') return () => server.handleMessage(message(MODERN_CALL, MODERN_HEADERS));
  const base = { host: '127.0.0.1:3000', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await server.handleMessage(message(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'alloc-bench', version: '1.0.0' } } }), base));
  const session = init.headers?.['Mcp-Session-Id'];
  if (session === undefined) throw new Error(`initialize opened no session: ${init.body ?? ''}`);
  const headers = { ...base, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await server.handleMessage(message(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers));
  return () => server.handleMessage(message(LEGACY_CALL, headers));
}

interface Site { readonly site: string; readonly bytes: number }
interface Figures { readonly variant: string; readonly label: string; readonly bytesPerCall: number[]; readonly sites: Site[] }
interface ProfileNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: ProfileNode[] }

const session = new Session();
session.connect();

async function measure(variant: string, label: string): Promise<Figures> {
  const call = await caller(variant);
  const check = await call();
  if (check.status !== 200 || check.body === undefined || !check.body.includes('"sum":42')) throw new Error(`${variant}: not the expected answer: ${check.status} ${check.body ?? ''}`);
  for (let i = 0; i < 20_000; i++) await call();
  const bytesPerCall: number[] = [];
  const sites = new Map<string, number>();
  for (let round = 0; round < 3; round++) {
    await session.post('HeapProfiler.startSampling', { samplingInterval: 64, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    for (let i = 0; i < calls; i++) await call();
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
    let total = 0;
    const walk = (node: ProfileNode): void => {
      total += node.selfSize;
      if (node.selfSize > 0) {
        const { functionName, url, lineNumber } = node.callFrame;
        const where = url === '' ? '(V8)' : url.replace(/^.*\/(dist|node_modules)\//, '$1/').replace(/^file:\/\//, '');
        // This script's own share: the message object a transport would make, and the tool's run().
        const site = where.endsWith('/bench/alloc.bench.ts') ? 'this script: the inbound message and the tool\'s run()' : `${where}:${functionName || '(anonymous)'}:${lineNumber + 1}`;
        sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
      }
      for (const child of node.children) walk(child);
    };
    walk(profile.head);
    bytesPerCall.push(total / calls);
  }
  const top = [...sites].map(([site, bytes]) => ({ site, bytes: bytes / (3 * calls) })).sort((a, b) => b.bytes - a.bytes).slice(0, 8);
  return { variant, label, bytesPerCall, sites: top };
}

const VARIANTS: readonly [string, string][] = [
  ['none', 'tools/call, 2026-07-28, no middleware'],
  ['bearer', 'same, with a static bearer token (staticTokenAuthorizer)'],
  ['noop', 'same, one middleware that only calls next()'],
  ['chain', `same, rate limit + audit (keyed chain, flushWithinMs ${AUDIT_FLUSH_WITHIN_MS}) + result budget`],
  ['legacy', 'tools/call in a 2025-11-25 HTTP session'],
];

const loadBefore = loadavg()[0]!;
const results: Figures[] = [];
try {
  for (const [variant, label] of VARIANTS) {
    results.push(await measure(variant, label));
    process.stdout.write(`${variant}: ${results.at(-1)!.bytesPerCall.map((b) => b.toFixed(0)).join(' / ')} bytes per call\n`);
  }
} finally {
  for (const middleware of opened) middleware.close?.();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const lines = [
  '# Bytes allocated per tools/call, in process (`npm run bench:alloc`)',
  '',
  `Run ${new Date().toISOString()}, Node ${process.version}, load average ${loadBefore.toFixed(2)}. ${calls} calls per measurement after 20,000 warm-up calls, three measurements per variant (V8's sampling heap profiler, interval 64 bytes, collected objects included). node:http's own objects are not in these figures (see the script's header).`,
  '',
  '| variant | bytes per call (median of 3) | the three |',
  '|---|---:|---|',
  ...results.map((r) => `| ${r.label} | ${median(r.bytesPerCall).toFixed(0)} | ${r.bytesPerCall.map((b) => b.toFixed(0)).join(', ')} |`),
  '',
  ...results.flatMap((r) => [`## ${r.label}`, '', '| bytes per call | allocated in (file:function:line) |', '|---:|---|', ...r.sites.map((s) => `| ${s.bytes.toFixed(0)} | \`${s.site}\` |`), '']),
];
if (write) {
  writeFileSync(join(ROOT, 'bench', 'results', 'allocations.md'), `${lines.join('\n')}\n`);
  process.stdout.write('written: bench/results/allocations.md\n');
}
process.exit(0);
