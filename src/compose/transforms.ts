/**
 * Tool transforms: declared changes to how tools are listed, applied in order to a list of tools
 * (`transformTools`), each producing an ordinary tool (`deriveTool`) that a server registers, lints
 * and lists as it would any other. Calls are translated back exactly: a renamed or re-described tool
 * runs the same handlers; a hidden argument's fixed value, or a default, is put back into the
 * arguments before the original `check`, `approval` and `run` see them; a narrowed argument needs no
 * translation (every value it accepts, the original accepted). Every bad transform is refused when
 * the list is built, with a `TransformError` naming the transform and the problem.
 */
import { isJsonObject } from '../json/json-object.js';
import type { JsonObject, JsonValue } from '../protocol/json-rpc.js';
import type { ToolDescriptor } from '../protocol/wire-types.js';
import { deriveTool } from '../server/tools/derive-tool.js';
import type { ApprovalRequest, Tool, ToolHandlers } from '../server/contract/tool-types.js';
import { acceptsValue, narrowSchema } from './narrow-schema.js';
import { DefinitionError } from '../errors/toolwright-error.js';

/** One declared transform (build them with the functions below). */
export type ToolTransform =
  | { readonly kind: 'rename'; readonly tool: string; readonly to: string }
  | { readonly kind: 'describe'; readonly tool: string; readonly description?: string; readonly title?: string }
  | { readonly kind: 'hide-argument'; readonly tool: string; readonly argument: string; readonly value: JsonValue }
  | { readonly kind: 'default-argument'; readonly tool: string; readonly argument: string; readonly value: JsonValue }
  | { readonly kind: 'narrow-argument'; readonly tool: string; readonly argument: string; readonly schema: JsonObject }
  | { readonly kind: 'filter'; readonly keep: ToolFilter }
  | { readonly kind: 'require-approval'; readonly tool: string; readonly request: Omit<ApprovalRequest, 'digest'> };

/** Which tools a `filter` keeps: every condition given must hold. */
export interface ToolFilter {
  /** Keep tools carrying at least one of these tags (the strings of `descriptor._meta.tags`). */
  readonly tags?: readonly string[];
  /**
   * Keep tools whose annotation hints are these, with MCP's defaults: readOnlyHint false,
   * destructiveHint true, and a read-only tool never counted destructive.
   */
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
}

/** A transform that cannot be applied: `index` in the list, what it is, and why. */
export class TransformError extends DefinitionError {
  readonly errorCode = 'transform' as const;
  readonly index: number;
  constructor(index: number, transform: ToolTransform, problem: string) {
    super(`transform ${index} (${transform.kind}${'tool' in transform ? ` of ${JSON.stringify(transform.tool)}` : ''}): ${problem}`);
    this.name = 'TransformError';
    this.index = index;
  }
}

/** Lists the tool as `to`. */
export const rename = (tool: string, to: string): ToolTransform => ({ kind: 'rename', tool, to });
/** Replaces the description and/or title the model reads. */
export const describe = (tool: string, text: { description?: string; title?: string }): ToolTransform => ({ kind: 'describe', tool, ...text });
/** Removes an argument from the listing; every call runs with `value` (written in the audit record as `fixed_arguments`). */
export const hideArgument = (tool: string, argument: string, value: JsonValue): ToolTransform => ({ kind: 'hide-argument', tool, argument, value });
/** Makes an argument optional with a listed `default`, put into the call when the caller leaves it out. */
export const defaultArgument = (tool: string, argument: string, value: JsonValue): ToolTransform => ({ kind: 'default-argument', tool, argument, value });
/** Narrows an argument's schema (e.g. `{ maximum: 10 }`, `{ enum: [...] }`); refused unless provably narrower. */
export const narrowArgument = (tool: string, argument: string, schema: JsonObject): ToolTransform => ({ kind: 'narrow-argument', tool, argument, schema });
/** Keeps only the tools matching `keep` (the others are not served at all). */
export const filterTools = (keep: ToolFilter): ToolTransform => ({ kind: 'filter', keep });
/** Asks for approval before every call (unless the tool's own `approval` already asks); the digest is the default (name + arguments). */
export const requireApproval = (tool: string, request: Omit<ApprovalRequest, 'digest'>): ToolTransform => ({ kind: 'require-approval', tool, request });

function matches(descriptor: Readonly<ToolDescriptor>, keep: ToolFilter): boolean {
  if (keep.tags !== undefined) {
    const tags = isJsonObject(descriptor._meta) && Array.isArray(descriptor._meta.tags) ? descriptor._meta.tags : [];
    if (!keep.tags.some((t) => tags.includes(t))) return false;
  }
  const hints = descriptor.annotations ?? {};
  if (keep.readOnlyHint !== undefined && (hints.readOnlyHint ?? false) !== keep.readOnlyHint) return false;
  // MCP: destructiveHint defaults to true and means something only for a tool that is not read-only.
  const destructive = (hints.readOnlyHint ?? false) ? false : (hints.destructiveHint ?? true);
  if (keep.destructiveHint !== undefined && destructive !== keep.destructiveHint) return false;
  return true;
}

/** The handlers with `extra` put into every call's arguments (`fill`: only where the caller left them out). */
function withArguments(handlers: ToolHandlers, extra: JsonObject, fill: boolean): ToolHandlers {
  const complete = (args: Record<string, unknown>): Record<string, unknown> => (fill ? { ...extra, ...args } : { ...args, ...extra });
  return {
    check: handlers.check === undefined ? undefined : (args, ctx) => handlers.check!(complete(args), ctx),
    approval: handlers.approval === undefined ? undefined : (args, ctx) => handlers.approval!(complete(args), ctx),
    run: (args, ctx) => handlers.run(complete(args), ctx),
  };
}

function propertyOf(tool: Tool, argument: string): { properties: JsonObject; schema: unknown } | string {
  const input = tool.descriptor.inputSchema as JsonObject;
  const properties = isJsonObject(input.properties) ? input.properties : {};
  if (!Object.hasOwn(properties, argument)) {
    const known = Object.keys(properties);
    return `unknown argument ${JSON.stringify(argument)} (arguments: ${known.length === 0 ? 'none' : known.join(', ')})`;
  }
  return { properties, schema: properties[argument] };
}

function applyOne(tool: Tool, transform: Exclude<ToolTransform, { kind: 'filter' } | { kind: 'rename' }>): Tool | string {
  const descriptor = tool.descriptor;
  const input = descriptor.inputSchema as JsonObject;
  switch (transform.kind) {
    case 'describe': {
      const next = { ...descriptor } as ToolDescriptor;
      if (transform.description !== undefined) next.description = transform.description;
      if (transform.title !== undefined) next.title = transform.title;
      return deriveTool(tool, { descriptor: next });
    }
    case 'hide-argument':
    case 'default-argument': {
      const found = propertyOf(tool, transform.argument);
      if (typeof found === 'string') return found;
      const bad = acceptsValue(found.schema, transform.value, input.$defs);
      if (bad !== undefined) return `${JSON.stringify(transform.value)} is not a valid value of ${JSON.stringify(transform.argument)}: ${bad}`;
      const required = Array.isArray(input.required) ? input.required.filter((r) => r !== transform.argument) : undefined;
      const properties = { ...found.properties };
      if (transform.kind === 'hide-argument') delete properties[transform.argument];
      else properties[transform.argument] = { ...(isJsonObject(found.schema) ? found.schema : {}), default: transform.value };
      const schema: JsonObject = { ...input, properties };
      if (required !== undefined) schema.required = required;
      const fixed = transform.kind === 'hide-argument';
      return deriveTool(tool, {
        descriptor: { ...descriptor, inputSchema: schema },
        handlers: withArguments(tool.handlers, { [transform.argument]: transform.value }, !fixed),
        ...(fixed ? { fixedArguments: { [transform.argument]: transform.value } } : {}),
      });
    }
    case 'narrow-argument': {
      const found = propertyOf(tool, transform.argument);
      if (typeof found === 'string') return found;
      if (!isJsonObject(found.schema)) return `argument ${JSON.stringify(transform.argument)} has a boolean schema; only an object schema can be narrowed`;
      const narrowed = narrowSchema(found.schema, transform.schema, input.$defs);
      if ('problem' in narrowed) return `not a narrowing of ${JSON.stringify(transform.argument)}: ${narrowed.problem}`;
      return deriveTool(tool, { descriptor: { ...descriptor, inputSchema: { ...input, properties: { ...found.properties, [transform.argument]: narrowed.schema } } as JsonObject } });
    }
    case 'require-approval': {
      const own = tool.handlers.approval;
      const asked = transform.request;
      const approval: ToolHandlers['approval'] = async (args, ctx) => (own === undefined ? undefined : await own(args, ctx)) ?? { ...asked };
      return deriveTool(tool, { handlers: { ...tool.handlers, approval } });
    }
  }
}

/**
 * Applies `transforms` in order to `tools` and returns the new list (the input is not changed).
 * A transform names a tool by its name at that point of the list (after earlier renames).
 * @throws TransformError for an unknown tool or argument, a rename onto a name in use, a narrowing
 *   that is not one, or a fixed/default value the argument's schema refuses.
 * @example
 * ```ts
 * import { createServer, defineTool } from 'toolwright';
 * import { filterTools, hideArgument, rename, transformTools } from 'toolwright/compose';
 *
 * const arm = createServer({ name: 'arm', version: '1.0.0', tools: [
 *   defineTool({ name: 'get_status', inputSchema: { type: 'object' }, run: () => 'idle' }),
 *   defineTool({ name: 'move', inputSchema: { type: 'object', properties: { x: { type: 'number' }, units: { type: 'string' } } }, run: () => 'moved' }),
 * ] });
 * const tools = transformTools(arm.mountable.tools, [
 *   filterTools({ destructiveHint: false }),
 *   rename('get_status', 'status'),
 *   hideArgument('move', 'units', 'mm'),
 * ]);
 * ```
 */
export function transformTools(tools: readonly Tool[], transforms: readonly ToolTransform[]): Tool[] {
  let list = [...tools];
  transforms.forEach((transform, index) => {
    if (transform.kind === 'filter') {
      list = list.filter((t) => matches(t.descriptor, transform.keep));
      return;
    }
    const at = list.findIndex((t) => t.name === transform.tool);
    if (at < 0) throw new TransformError(index, transform, `unknown tool (tools: ${list.map((t) => t.name).join(', ') || 'none'})`);
    const tool = list[at]!;
    if (transform.kind === 'rename') {
      if (typeof transform.to !== 'string' || transform.to === '') throw new TransformError(index, transform, 'the new name must be a non-empty string');
      if (transform.to !== tool.name && list.some((t) => t.name === transform.to)) throw new TransformError(index, transform, `${JSON.stringify(transform.to)} is already the name of another tool`);
      list[at] = deriveTool(tool, { descriptor: { ...tool.descriptor, name: transform.to } });
      return;
    }
    const next = applyOne(tool, transform);
    if (typeof next === 'string') throw new TransformError(index, transform, next);
    list[at] = next;
  });
  return list;
}
