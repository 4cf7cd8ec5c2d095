// Client driver: the Vercel AI SDK's MCP client (`@ai-sdk/mcp` 2.0.99), default options, used the
// way an AI SDK app uses it: `tools()` turns the listing into AI SDK tools, and the call goes
// through the tool's own `execute`.
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { runDriver, textOf } from './driver-io.js';

await runDriver(async (spec) => {
  const target = spec.target;
  const client = await createMCPClient({
    transport: 'url' in target
      ? { type: 'http', url: target.url, ...(target.headers === undefined ? {} : { headers: target.headers }) }
      : new Experimental_StdioMCPTransport({ command: target.command, args: target.args, cwd: target.cwd, ...(target.env === undefined ? {} : { env: { ...process.env, ...target.env } as Record<string, string> }) }),
  });
  try {
    const tools = await client.tools();
    const tool = tools[spec.tool];
    if (tool === undefined) throw new Error(`tools() has no ${JSON.stringify(spec.tool)}; it has ${Object.keys(tools).join(', ')}`);
    if (tool.execute === undefined) throw new Error(`tool ${spec.tool} has no execute()`);
    const result: unknown = await tool.execute(spec.arguments, { toolCallId: 'interop-1', messages: [], context: {} });
    const record = result as { isError?: unknown; structuredContent?: unknown };
    return { tools: Object.keys(tools), isError: record.isError === true, text: textOf(result), structured: record.structuredContent };
  } finally {
    await client.close();
  }
});
