/**
 * Task records in THE store (src/server/store/store.ts): one record per task under `task:<id>`,
 * written with compare-and-set so concurrent writers (the runner, tasks/update, tasks/cancel, on
 * any instance sharing the store) never lose each other's change. Every write sets the record's
 * expiry to its `ttlMs` from that write, so a task is never dropped earlier than `ttlMs` after its
 * creation nor while it still changes. Nothing was added to the Store interface.
 */
import type { JsonValue } from '../../protocol/json-rpc.js';
import type { Store } from '../store/store.js';
import { TERMINAL_STATUSES } from './task-wire.js';
import type { TaskRecord } from './task-wire.js';
import { StoreError } from '../../errors/toolwright-error.js';

const KEY_PREFIX = 'task:';
// Writers retry a lost compare-and-set; more losses than this in a row means something is wrong.
const MAX_CAS_ATTEMPTS = 32;

function keyOf(taskId: string): string {
  return KEY_PREFIX + taskId;
}

/** Thrown when a record cannot be written after MAX_CAS_ATTEMPTS lost races. */
export class TaskWriteConflictError extends StoreError {
  readonly errorCode = 'task-write-conflict' as const;
  constructor(readonly taskId: string) {
    super(`task ${taskId}: ${MAX_CAS_ATTEMPTS} concurrent writes in a row won over this one; giving up`);
    this.name = 'TaskWriteConflictError';
  }
}

/** Reads and writes task records; access is by owner: another subject's task reads as absent. */
export class TaskStore {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  /** Writes a new record; false when the id is taken (never overwrites). May throw StoreFullError. */
  async create(record: TaskRecord): Promise<boolean> {
    const written = await this.#store.compareAndSet(keyOf(record.taskId), 0, record as unknown as JsonValue, { ttlMs: record.ttlMs });
    return written.ok;
  }

  /** The task, if it exists and `owner` created it; undefined otherwise (the caller cannot tell which). */
  async read(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const stored = await this.#store.get(keyOf(taskId));
    const record = stored?.value as unknown as TaskRecord | undefined;
    return record !== undefined && record.owner === owner ? record : undefined;
  }

  /**
   * Applies `change` to the current record and writes it if the record did not change meanwhile
   * (else re-reads and re-applies). `change` returns undefined to leave the record as it is.
   * Terminal records are not changed unless `terminalToo` (only the cancelled task's closing
   * statusMessage is). Resolves to the record as written, or as found when not.
   */
  async update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined, terminalToo = false): Promise<{ record: TaskRecord | undefined; changed: boolean }> {
    const key = keyOf(taskId);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const stored = await this.#store.get(key);
      if (stored === undefined) return { record: undefined, changed: false };
      const current = stored.value as unknown as TaskRecord;
      if (TERMINAL_STATUSES.has(current.status) && !terminalToo) return { record: current, changed: false };
      const next = change(structuredClone(current));
      if (next === undefined) return { record: current, changed: false };
      const written = await this.#store.compareAndSet(key, stored.version, next as unknown as JsonValue, { ttlMs: next.ttlMs });
      if (written.ok) return { record: next, changed: true };
    }
    throw new TaskWriteConflictError(taskId);
  }
}
