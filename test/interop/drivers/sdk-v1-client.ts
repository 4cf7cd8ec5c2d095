// Client driver: the official SDK v1 client (`@modelcontextprotocol/sdk` 1.32.2), default options.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runOfficialSdkDriver } from './official-sdk-driver.js';

await runOfficialSdkDriver({
  client: () => new Client({ name: 'interop-sdk-v1', version: '1.32.2' }),
  http: (url, requestInit) => new StreamableHTTPClientTransport(url, { requestInit }),
  stdio: (params) => new StdioClientTransport(params),
});
