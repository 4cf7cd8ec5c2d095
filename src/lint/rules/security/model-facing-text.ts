import { isJsonObject } from '../../../json/json-object.js';
import { childPointer } from '../../tool-view.js';
import { forEachSchemaNode } from '../schema-nodes.js';
import type { WireTool } from '../../types.js';

/** One piece of text a model (or a user approving a call) reads, with where it is. */
export interface TextSite {
  pointer: string;
  text: string;
}

/**
 * Every string of a tool that reaches the model or the approval UI: name, title, description,
 * annotation title, and in the schemas every description, title, string enum/const/default/examples
 * value and property name.
 */
export function modelFacingText(tool: WireTool): readonly TextSite[] {
  const cached = sitesOf.get(tool);
  if (cached !== undefined) return cached.all;
  const sites: TextSite[] = [];
  const add = (pointer: string, value: unknown): void => {
    if (typeof value === 'string' && value.length > 0) sites.push({ pointer, text: value });
  };
  add('/name', tool.name);
  add('/title', tool.title);
  add('/description', tool.description);
  if (isJsonObject(tool.annotations)) add('/annotations/title', tool.annotations.title);
  // The pointer is built only for a text that is there (most nodes have no title, default or const).
  const addChild = (pointer: string, value: unknown, ...tokens: (string | number)[]): void => {
    if (typeof value === 'string' && value.length > 0) sites.push({ pointer: childPointer(pointer, ...tokens), text: value });
  };
  forEachSchemaNode(tool, ({ schema, pointer }) => {
    addChild(pointer, schema.description, 'description');
    addChild(pointer, schema.title, 'title');
    addChild(pointer, schema.default, 'default');
    addChild(pointer, schema.const, 'const');
    if (Array.isArray(schema.enum)) schema.enum.forEach((v, i) => addChild(pointer, v, 'enum', i));
    if (Array.isArray(schema.examples)) schema.examples.forEach((v, i) => addChild(pointer, v, 'examples', i));
    if (isJsonObject(schema.properties)) for (const name of Object.keys(schema.properties)) addChild(pointer, name, 'properties', name);
  });
  sitesOf.set(tool, { all: sites, prose: sites.filter((site) => PROSE_POINTER.test(site.pointer)) });
  return sites;
}

// Six security rules read the same texts of every tool; they are collected once per tool object.
const sitesOf = new WeakMap<object, { all: readonly TextSite[]; prose: readonly TextSite[] }>();
const PROSE_POINTER = /\/(?:description|title)$/;

/** Prose only: descriptions and titles (where instructions to the model would hide). */
export function proseText(tool: WireTool): readonly TextSite[] {
  modelFacingText(tool);
  return sitesOf.get(tool)!.prose;
}
