// Official SDK v2 over stdio: `serveStdio` pins one McpServer from the factory per connection.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { exitOnSignal, parseServerArgs } from '../shared/server-args.js';
import { prepareSdkCatalog, sdkServerFactory } from './sdk-catalog.js';

const args = parseServerArgs(process.argv.slice(2));
serveStdio(sdkServerFactory(prepareSdkCatalog(args.tools), 'sdk-stdio'), { legacy: 'reject' });
exitOnSignal();
