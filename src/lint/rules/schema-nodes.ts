import { walkSchema } from '../../schema/index.js';
import type { SchemaVisit } from '../../schema/index.js';
import { isObject } from '../tool-view.js';
import type { WireTool } from '../types.js';

/** A subschema of a tool with its pointer inside the tool descriptor. */
export interface ToolSchemaNode {
  schema: Record<string, unknown>;
  /** Pointer inside the tool, e.g. `/inputSchema/properties/force`. */
  pointer: string;
  visit: SchemaVisit;
}

/**
 * Every object subschema of `inputSchema` and `outputSchema`, in document order. Boolean
 * subschemas carry no keywords to judge and are left out.
 */
export function forEachSchemaNode(tool: WireTool, visit: (node: ToolSchemaNode) => void, which: readonly ('inputSchema' | 'outputSchema')[] = ['inputSchema', 'outputSchema']): void {
  for (const field of which) {
    const root = tool[field];
    if (!isObject(root)) continue;
    walkSchema(root, (node) => {
      if (isObject(node.schema)) visit({ schema: node.schema, pointer: `/${field}${node.pointer}`, visit: node });
    });
  }
}
