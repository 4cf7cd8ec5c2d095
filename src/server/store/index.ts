/** The store behind approvals, rate limits, tasks and sessions: the interface and its in-memory default. */
export { createMemoryStore } from './memory-store.js';
export type { MemoryStoreOptions } from './memory-store.js';
export { StoreFullError } from './store.js';
export type {
  Store,
  Clock,
  ClaimRecord,
  ClaimResult,
  TokenBucketRule,
  TokenBucketVerdict,
  StoredRecord,
  CompareAndSetResult,
  StoreListener,
} from './store.js';
