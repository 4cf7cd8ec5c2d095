/**
 * docs/compose.md's proxy example, compiled by the typecheck and run by
 * test/compose/proxy/docs-example.test.ts: server-everything (a third-party stdio server) fronted
 * under the prefix `every`, its read-only tools only, one of them renamed and put behind approval,
 * every call audited by the front.
 */
import { auditLog, createServer } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { filterTools, rename, requireApproval, toolsFromUpstream } from '../../src/compose/index.js';
import type { UpstreamTools } from '../../src/compose/index.js';

/** Starts the upstream and builds the front server; `close()` stops both. */
export async function proxyFront(everythingEntry: string, auditPath: string, auditKeyDir: string): Promise<{ server: McpServer; everything: UpstreamTools; close(): Promise<void> }> {
  const everything = await toolsFromUpstream({ command: process.execPath, args: [everythingEntry, 'stdio'] }, {
    prefix: 'every',
    timeoutMs: 20_000, // per call; then it is cancelled upstream
    maxConcurrent: 8,
    transforms: [
      filterTools({ readOnlyHint: true }),
      rename('get-sum', 'add'),
      requireApproval('add', { message: 'Add these numbers upstream?', approver: 'operator' }), // held for server.approvals / the console
    ],
  });
  for (const problem of everything.problems) console.warn(`${problem.tool}: ${problem.code}: ${problem.message}`);
  const server = createServer({
    name: 'front', version: '1.0.0',
    tools: everything.tools,
    use: [auditLog({ path: auditPath, key: `${auditKeyDir}/audit.key`, head: `${auditKeyDir}/calls.head` })],
  });
  return { server, everything, close: async () => { await server.close(); await everything.close(); } };
}
