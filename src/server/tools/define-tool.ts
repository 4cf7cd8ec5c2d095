import type { Middleware } from '../contract/middleware.js';
import type { VisibleTo } from '../contract/visibility.js';
import type { StandardJSONSchemaV1 } from '@standard-schema/spec';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import { scopeListProblems, TOOL_SCOPES_META_KEY } from '../../protocol/scope-token.js';
import { resolveTaskPolicy } from '../tasks/task-policy.js';
import type { ResolvedTaskPolicy } from '../tasks/task-policy.js';
import type { InferArguments, SchemaInput, Tool, ToolDefinitionInit, ToolHandlers } from '../contract/tool-types.js';
import { DefinitionError } from '../../errors/toolwright-error.js';

/** Raised when a tool definition cannot even be turned into a descriptor (e.g. a schema is not an object). */
export class ToolDefinitionError extends DefinitionError {
  readonly errorCode = 'tool-definition' as const;
  readonly toolName: string;
  constructor(toolName: string, message: string) {
    super(`Tool ${JSON.stringify(toolName)}: ${message}`);
    this.name = 'ToolDefinitionError';
    this.toolName = toolName;
  }
}

function isStandardJsonSchema(value: unknown): value is StandardJSONSchemaV1 {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

/** Freezes `value` and everything in it (a definition cannot change after it is made). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Turns a schema given to `defineTool` into the plain JSON Schema object that will be both
 * advertised and enforced. Standard JSON Schema objects are converted here, once; literals are
 * copied so later mutation of the caller's object cannot make list and validation diverge.
 */
function toWireSchema(toolName: string, field: 'inputSchema' | 'outputSchema', schema: unknown): JsonObject {
  let plain: unknown = schema;
  if (isStandardJsonSchema(schema)) {
    const props = schema['~standard'] as Partial<StandardJSONSchemaV1.Props>;
    if (props.jsonSchema === undefined || typeof props.jsonSchema[field === 'inputSchema' ? 'input' : 'output'] !== 'function') {
      throw new ToolDefinitionError(toolName, `${field} is a Standard Schema from "${String(props.vendor)}" that cannot convert to JSON Schema (no ~standard.jsonSchema)`);
    }
    try {
      plain = field === 'inputSchema' ? props.jsonSchema.input({ target: 'draft-2020-12' }) : props.jsonSchema.output({ target: 'draft-2020-12' });
    } catch (error) {
      throw new ToolDefinitionError(toolName, `${field} could not be converted to JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw new ToolDefinitionError(toolName, `${field} must be a JSON Schema object, got ${plain === null ? 'null' : Array.isArray(plain) ? 'array' : typeof plain}`);
  }
  let copy: JsonObject;
  try {
    copy = JSON.parse(JSON.stringify(plain)) as JsonObject;
  } catch (error) {
    throw new ToolDefinitionError(toolName, `${field} is not JSON-serialisable: ${error instanceof Error ? error.message : String(error)}`);
  }
  return deepFreeze(copy);
}

/**
 * Defines a tool. The returned object's `descriptor` is exactly what `tools/list` shows, and its
 * `inputSchema` is exactly the schema that validates calls. Definition rules (name syntax, root
 * `type: "object"`, schema compiles, `x-mcp-header`) are checked when a server registers the tool.
 *
 * @example
 * ```ts
 * import { defineTool } from 'toolwright';
 *
 * const sum = defineTool({
 *   name: 'calculate_sum',
 *   description: 'Add two integers.',
 *   inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } },
 *                  required: ['a', 'b'], additionalProperties: false } as const,
 *   run: ({ a, b }) => ({ structuredContent: { sum: a + b } }),
 * });
 * ```
 */
export function defineTool<const I extends SchemaInput, const O extends SchemaInput | undefined = undefined>(
  definition: ToolDefinitionInit<I, O>,
): Tool<InferArguments<I>> {
  const name = definition.name;
  if (typeof definition.run !== 'function') throw new ToolDefinitionError(String(name), 'run must be a function');
  // Key order is the order a reader expects in tools/list: identity, prose, then contracts.
  const descriptor = { name } as ToolDescriptor;
  if (definition.title !== undefined) descriptor.title = definition.title;
  if (definition.description !== undefined) descriptor.description = definition.description;
  descriptor.inputSchema = toWireSchema(name, 'inputSchema', definition.inputSchema);
  if (definition.outputSchema !== undefined) descriptor.outputSchema = toWireSchema(name, 'outputSchema', definition.outputSchema);
  if (definition.annotations !== undefined) descriptor.annotations = { ...definition.annotations };
  if (definition.icons !== undefined) descriptor.icons = definition.icons.map((icon) => ({ ...icon }));
  if (definition._meta !== undefined) descriptor._meta = JSON.parse(JSON.stringify(definition._meta)) as JsonObject;
  const scopes = checkToolScopes(name, definition.scopes);
  if (scopes.length > 0) descriptor._meta = { ...descriptor._meta, [TOOL_SCOPES_META_KEY]: [...scopes] };
  const handlers: ToolHandlers = {
    check: definition.check as ToolHandlers['check'],
    approval: definition.approval as ToolHandlers['approval'],
    run: definition.run as ToolHandlers['run'],
  };
  let task: ResolvedTaskPolicy | undefined;
  if (definition.task !== undefined) {
    const resolved = resolveTaskPolicy(definition.task);
    if (typeof resolved === 'string') throw new ToolDefinitionError(String(name), resolved);
    task = resolved;
  }
  return Object.freeze({
    name,
    descriptor: deepFreeze(descriptor),
    scopes,
    visibleTo: checkVisibleTo(name, definition.visibleTo),
    requiredClientCapabilities: definition.requiredClientCapabilities,
    handlers,
    use: Object.freeze(checkToolMiddleware(name, definition.use)),
    task,
  });
}

function checkToolScopes(name: string, scopes: unknown): readonly string[] {
  const problem = scopeListProblems(scopes)[0];
  if (problem !== undefined) throw new ToolDefinitionError(String(name), problem.message);
  return Object.freeze(scopes === undefined ? [] : [...(scopes as string[])]);
}

function checkVisibleTo(name: string, visibleTo: unknown): VisibleTo | undefined {
  if (visibleTo !== undefined && typeof visibleTo !== 'function') throw new ToolDefinitionError(String(name), 'visibleTo must be a function (viewer) => boolean');
  return visibleTo as VisibleTo | undefined;
}

function checkToolMiddleware(name: string, use: unknown): Middleware[] {
  if (use === undefined) return [];
  if (!Array.isArray(use)) throw new ToolDefinitionError(String(name), 'use must be an array of middleware');
  for (const [index, m] of use.entries()) {
    if (typeof m !== 'object' || m === null || typeof m.name !== 'string' || typeof m.handle !== 'function') {
      throw new ToolDefinitionError(String(name), `use[${index}] must be a middleware { name, handle(call, next) }`);
    }
  }
  return [...use] as Middleware[];
}

/** True for objects produced by {@link defineTool}. */
export function isTool(value: unknown): value is Tool {
  return (
    typeof value === 'object' && value !== null && 'descriptor' in value && 'handlers' in value &&
    typeof (value as { handlers: { run?: unknown } }).handlers.run === 'function'
  );
}
