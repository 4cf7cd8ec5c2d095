import { isJsonObject } from '../../json/json-object.js';
import type { SchemaVisit } from '../../schema/index.js';
import { schemaVisits } from '../tool-view.js';
import type { WireTool } from '../types.js';

/** A subschema of a tool with its pointer inside the tool descriptor. */
export interface ToolSchemaNode {
  schema: Record<string, unknown>;
  /** Pointer inside the tool, e.g. `/inputSchema/properties/force`. */
  pointer: string;
  field: 'inputSchema' | 'outputSchema';
  visit: SchemaVisit;
}

// Many rules look at every subschema; the walk is done once per tool object and shared.
const walked = new WeakMap<object, ToolSchemaNode[]>();

function nodesOf(tool: WireTool): ToolSchemaNode[] {
  let nodes = walked.get(tool);
  if (nodes !== undefined) return nodes;
  nodes = [];
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const root = tool[field];
    if (!isJsonObject(root)) continue;
    for (const node of schemaVisits(root)) {
      if (isJsonObject(node.schema)) nodes.push({ schema: node.schema, pointer: `/${field}${node.pointer}`, field, visit: node });
    }
  }
  walked.set(tool, nodes);
  return nodes;
}

/**
 * Every object subschema of `inputSchema` and `outputSchema` (or only the fields named), in
 * document order. Boolean subschemas carry no keywords to judge and are left out.
 */
export function forEachSchemaNode(tool: WireTool, visit: (node: ToolSchemaNode) => void, which: readonly ('inputSchema' | 'outputSchema')[] = ['inputSchema', 'outputSchema']): void {
  const both = which.length === 2;
  for (const node of nodesOf(tool)) if (both || which.includes(node.field)) visit(node);
}
