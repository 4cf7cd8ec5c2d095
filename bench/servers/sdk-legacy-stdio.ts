// Official SDK v2 over stdio serving 2025-era clients: `serveStdio` with its default legacy posture
// ('serve': a connection that opens with initialize is pinned to a 2025-era McpServer).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { exitOnSignal, parseServerArgs } from '../shared/server-args.js';
import { prepareSdkCatalog, sdkServerFactory } from './sdk-catalog.js';

const args = parseServerArgs(process.argv.slice(2));
serveStdio(sdkServerFactory(prepareSdkCatalog(args.tools), 'sdk-legacy-stdio'), { legacy: 'serve' });
exitOnSignal();
