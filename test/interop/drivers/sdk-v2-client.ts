// Client driver: the official SDK v2 client (`@modelcontextprotocol/client` 2.4.0), default options.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runDriver, textOf } from './driver-io.js';

await runDriver(async (spec) => {
  const target = spec.target;
  const transport = 'url' in target
    ? new StreamableHTTPClientTransport(new URL(target.url))
    : new StdioClientTransport({ command: target.command, args: target.args, cwd: target.cwd, ...(target.env === undefined ? {} : { env: { ...process.env, ...target.env } as Record<string, string> }) });
  const client = new Client({ name: 'interop-sdk-v2', version: '2.4.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: spec.tool, arguments: spec.arguments });
    return { tools: tools.map((t) => t.name), isError: result.isError === true, text: textOf(result), structured: result.structuredContent };
  } finally {
    await client.close();
  }
});
