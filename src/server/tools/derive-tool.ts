/**
 * `deriveTool`: a new tool made from an existing one with some parts replaced (name, descriptor,
 * handlers, fixed arguments). The one way mounts (a prefix) and transforms (src/compose/) reshape a
 * tool: the result is a tool like one from `defineTool`, checked again when a server registers it.
 */
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import { deepFreeze } from './define-tool.js';
import type { Tool, ToolHandlers } from '../contract/tool-types.js';

/** What {@link deriveTool} replaces; anything not given is kept. */
export interface ToolChanges {
  /** The new descriptor (its `name` is the tool's name). Deep-copied and frozen. */
  readonly descriptor?: ToolDescriptor;
  readonly handlers?: ToolHandlers;
  /** See `Tool.fixedArguments`; merged over the original tool's. */
  readonly fixedArguments?: JsonObject;
}

/**
 * A tool like `tool` with `changes` applied. Scopes, `visibleTo`, required client capabilities, the
 * tool's own middleware and its task policy are kept.
 */
export function deriveTool(tool: Tool, changes: ToolChanges): Tool {
  const descriptor = changes.descriptor === undefined ? tool.descriptor : deepFreeze(JSON.parse(JSON.stringify(changes.descriptor)) as ToolDescriptor);
  const fixed = changes.fixedArguments === undefined ? tool.fixedArguments : deepFreeze({ ...tool.fixedArguments, ...JSON.parse(JSON.stringify(changes.fixedArguments)) as JsonObject });
  return Object.freeze({
    name: descriptor.name,
    descriptor,
    scopes: tool.scopes,
    visibleTo: tool.visibleTo,
    requiredClientCapabilities: tool.requiredClientCapabilities,
    handlers: changes.handlers ?? tool.handlers,
    use: tool.use,
    task: tool.task,
    ...(fixed !== undefined ? { fixedArguments: fixed } : {}),
  });
}
