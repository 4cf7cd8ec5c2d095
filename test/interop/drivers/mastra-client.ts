// Client driver: Mastra's MCP client (`@mastra/mcp` 0.14.5 with `@mastra/core` 0.24.9, the newest
// pair that supports Node 20), default options. `getTools()` namespaces each tool as
// `<server>_<tool>`; the call goes through the Mastra tool's `execute`, which returns a tool's
// structuredContent alone when it has one, else the whole CallToolResult.
import { MCPClient } from '@mastra/mcp';
import { runDriver, textOf } from './driver-io.js';

const SERVER = 'interop';

await runDriver(async (spec, index) => {
  const target = spec.target;
  const mcp = new MCPClient({
    id: `interop-${index}`,
    servers: {
      [SERVER]: 'url' in target
        ? { url: new URL(target.url), ...(target.headers === undefined ? {} : { requestInit: { headers: target.headers } }) }
        : { command: target.command, args: target.args, ...(target.env === undefined ? {} : { env: target.env }) },
    },
  });
  try {
    const tools = await mcp.getTools();
    const names = Object.keys(tools).map((name) => name.slice(SERVER.length + 1));
    const tool = tools[`${SERVER}_${spec.tool}`] as { execute?: (input: { context: Record<string, unknown> }) => Promise<unknown> } | undefined;
    if (tool?.execute === undefined) throw new Error(`getTools() has no ${SERVER}_${spec.tool}; it has ${Object.keys(tools).join(', ')}`);
    const result = await tool.execute({ context: spec.arguments });
    const record = result as { content?: unknown; isError?: unknown; structuredContent?: unknown };
    if (!Array.isArray(record.content)) return { tools: names, isError: false, text: JSON.stringify(result), structured: result };
    return { tools: names, isError: record.isError === true, text: textOf(result), structured: record.structuredContent };
  } finally {
    await mcp.disconnect();
  }
});
