// Toolwright over stdio, started through its public `createServer(...).stdio()`.
import { exitOnSignal, parseServerArgs } from '../shared/server-args.js';
import { createToolwrightServer } from './toolwright-app.js';

const args = parseServerArgs(process.argv.slice(2));
const server = await createToolwrightServer('toolwright-stdio', args.tools);
await server.stdio();
exitOnSignal();
