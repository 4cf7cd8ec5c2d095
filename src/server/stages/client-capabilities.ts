import { isJsonObject } from '../../protocol/json-rpc.js';
import { rpcError } from '../outcomes.js';
import { tasksNotDeclared } from './tasks-not-declared.js';
import { declaresTasks } from '../tasks/task-wire.js';
import { fail } from './stage.js';
import type { Stage, ToolFound } from './stage.js';

/** The part of `required` that `declared` lacks, or undefined when everything is declared. */
export function missingCapabilities(required: Record<string, unknown>, declared: Record<string, unknown>): Record<string, unknown> | undefined {
  let missing: Record<string, unknown> | undefined;
  for (const [key, need] of Object.entries(required)) {
    const have = declared[key];
    if (have === undefined || have === null) {
      (missing ??= {})[key] = need;
    } else if (isJsonObject(need) && Object.keys(need).length > 0 && isJsonObject(have)) {
      const inner = missingCapabilities(need, have);
      if (inner !== undefined) (missing ??= {})[key] = inner;
    }
  }
  return missing;
}

/** The tool's `requiredClientCapabilities` (and the tasks extension, for task-only tools) must be declared on this very request. */
export const clientCapabilities: Stage<'client-capabilities', ToolFound> = {
  name: 'client-capabilities',
  run(s) {
    // A tool that cannot answer synchronously needs the tasks extension on this request (SEP-2663 "Required Capabilities").
    if (s.tool.tool.task?.support === 'required' && !declaresTasks(s.capabilities)) return tasksNotDeclared(`tool ${s.tool.name} runs only as a task`);
    const required = s.tool.tool.requiredClientCapabilities;
    if (required === undefined) return s;
    const missing = missingCapabilities(required, s.capabilities);
    if (missing === undefined) return s;
    return fail(rpcError('missingClientCapability', `Missing required client capability: ${Object.keys(missing).join(', ')} (tool ${s.tool.name} cannot run without it)`, {
      data: { requiredCapabilities: missing },
    }));
  },
};
