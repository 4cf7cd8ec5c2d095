// Client driver: the official SDK v2 client (`@modelcontextprotocol/client` 2.4.0), default options.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runOfficialSdkDriver } from './official-sdk-driver.js';

await runOfficialSdkDriver({
  client: () => new Client({ name: 'interop-sdk-v2', version: '2.4.0' }),
  http: (url, requestInit) => new StreamableHTTPClientTransport(url, { requestInit }),
  stdio: (params) => new StdioClientTransport(params),
});
