import { rpcError } from '../outcomes.js';
import { fail } from './stage.js';
import type { Stop } from './stage.js';
import { TASKS_EXTENSION } from '../tasks/task-wire.js';

/** The -32021 of a request that uses tasks without declaring the extension. */
export function tasksNotDeclared(what: string): Stop {
  return fail(rpcError('missingClientCapability', `Missing required client capability: extensions["${TASKS_EXTENSION}"] (${what})`, {
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  }));
}
