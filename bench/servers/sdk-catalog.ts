// The official SDK v2 (`@modelcontextprotocol/server` 2.4.0) serving the benchmark catalog.
// Built the way the SDK documents and its conformance fixture do it: zod schemas, `registerTool`,
// and a factory that `createMcpHandler` / `serveStdio` call for a fresh McpServer. The zod schemas
// themselves are built once at module load (as a careful user would), so the per-request cost
// measured is the SDK's own registration and dispatch, not schema construction.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { catalogOf, fillerText, sumText, type JsonSchemaObject } from '../shared/catalog.js';

type ZodShape = Record<string, z.ZodType>;

function zodOf(schema: JsonSchemaObject): z.ZodType {
  switch (schema['type']) {
    case 'integer':
    case 'number': {
      let number = z.number();
      if (schema['type'] === 'integer') number = number.int();
      if (typeof schema['minimum'] === 'number') number = number.min(schema['minimum']);
      if (typeof schema['maximum'] === 'number') number = number.max(schema['maximum']);
      return typeof schema['description'] === 'string' ? number.describe(schema['description']) : number;
    }
    case 'string': {
      const values = schema['enum'];
      if (Array.isArray(values)) return z.enum(values as [string, ...string[]]);
      let text = z.string();
      if (typeof schema['maxLength'] === 'number') text = text.max(schema['maxLength']);
      return text;
    }
    case 'boolean':
      return z.boolean();
    case 'array': {
      let list = z.array(zodOf(schema['items'] as JsonSchemaObject));
      if (typeof schema['maxItems'] === 'number') list = list.max(schema['maxItems']);
      return list;
    }
    case 'object':
      return z.object(shapeOf(schema)).strict();
    default:
      throw new Error(`bench catalog uses a schema the zod mirror does not cover: ${JSON.stringify(schema)}`);
  }
}

function shapeOf(schema: JsonSchemaObject): ZodShape {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchemaObject>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const shape: ZodShape = {};
  for (const [key, property] of Object.entries(properties)) {
    const zod = zodOf(property);
    shape[key] = required.has(key) ? zod : zod.optional();
  }
  return shape;
}

interface PreparedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodObject<ZodShape>;
}

/** Zod mirrors of the catalog, built once; `sdkServerFactory` registers them per instance. */
export function prepareSdkCatalog(size: number): PreparedTool[] {
  return catalogOf(size).map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: z.object(shapeOf(tool.inputSchema)).strict(),
  }));
}

export function sdkServerFactory(tools: readonly PreparedTool[], name: string): () => McpServer {
  return () => {
    const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
    for (const tool of tools) {
      if (tool.name === 'calculate_sum') {
        server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, async (args) => {
          const sum = (args['a'] as number) + (args['b'] as number);
          return { content: [{ type: 'text', text: sumText(sum) }], structuredContent: { sum } };
        });
      } else {
        server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema }, async () => ({
          content: [{ type: 'text', text: fillerText(tool.name) }],
        }));
      }
    }
    return server;
  };
}
