// Loads the built Toolwright package (dist/, from `npm run build`) and defines the benchmark
// catalog with it. The import is dynamic and typed by the small surface used here, so the bench
// compiles on its own and measures exactly the JavaScript users would run.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { catalogOf, fillerText, sumText } from '../shared/catalog.js';

interface ToolResultInit {
  content: { type: 'text'; text: string }[];
  structuredContent?: unknown;
}

interface ToolDefinitionInit {
  name: string;
  description: string;
  inputSchema: unknown;
  run: (args: Record<string, unknown>) => ToolResultInit;
}

/** The part of Toolwright's public API this benchmark drives. */
export interface ToolwrightServer {
  listen(options: { port: number; host: string }): unknown;
  stdio(): unknown;
}

interface ToolwrightModule {
  defineTool(definition: ToolDefinitionInit): unknown;
  createServer(options: { name: string; version: string; tools: unknown[]; use?: unknown[] }): ToolwrightServer;
  rateLimit(options: { capacity: number; refillPerSecond: number }): unknown;
  auditLog(options: { path: string; fsync: 'never'; flushWithinMs: number; key: string; head: string }): unknown;
  resultBudget(options: { maxTokens: number }): unknown;
}

/**
 * The audit's write interval in the middleware suite (`flushWithinMs`): under load the records of
 * many calls go out in one write and one head seal (issue 31's "audit (no fsync, batched)").
 */
export const AUDIT_FLUSH_WITHIN_MS = 10;

/**
 * The middleware of the `middleware` suite: `chain`, every call rate-limited, audited (to
 * `auditPath`, fsync off, written at most AUDIT_FLUSH_WITHIN_MS after a call, keyed with the key
 * and head in `keyDir`, outside the log's folder as the audit log requires) and budgeted; `empty`,
 * `use: []`.
 */
export type MiddlewareChoice = { kind: 'chain'; auditPath: string; keyDir: string } | { kind: 'empty' };

// Compiled into .cache/bench/servers (the bench), or run from bench/servers through tsx (harness tests).
const distEntry = ['../../../dist/index.js', '../../dist/index.js'].map((relative) => fileURLToPath(new URL(relative, import.meta.url))).find((path) => existsSync(path))
  ?? fileURLToPath(new URL('../../../dist/index.js', import.meta.url));

export async function createToolwrightServer(name: string, catalogSize: number, middleware?: MiddlewareChoice): Promise<ToolwrightServer> {
  const toolwright = (await import(pathToFileURL(distEntry).href)) as ToolwrightModule;
  const tools = catalogOf(catalogSize).map((tool) =>
    toolwright.defineTool({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      run: tool.name === 'calculate_sum'
        ? (args) => {
            const sum = (args['a'] as number) + (args['b'] as number);
            return { content: [{ type: 'text', text: sumText(sum) }], structuredContent: { sum } };
          }
        : () => ({ content: [{ type: 'text', text: fillerText(tool.name) }] }),
    }),
  );
  if (middleware === undefined) return toolwright.createServer({ name, version: '1.0.0', tools });
  if (middleware.kind === 'empty') return toolwright.createServer({ name, version: '1.0.0', tools, use: [] });
  // A bucket large enough never to refuse under load: the cost measured is the store round trip.
  const use = [
    toolwright.rateLimit({ capacity: 1e9, refillPerSecond: 1e9 }),
    toolwright.auditLog({ path: middleware.auditPath, fsync: 'never', flushWithinMs: AUDIT_FLUSH_WITHIN_MS, key: `${middleware.keyDir}/audit.key`, head: `${middleware.keyDir}/calls.head` }),
    toolwright.resultBudget({ maxTokens: 4096 }),
  ];
  return toolwright.createServer({ name, version: '1.0.0', tools, use });
}
