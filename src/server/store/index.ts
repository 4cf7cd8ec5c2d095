/** The store behind approvals, rate limits, tasks and sessions: the interface and its in-memory default. */
export { createMemoryStore } from './memory-store.js';
export type { MemoryStoreOptions } from './memory-store.js';
export { createRedisStore } from './redis-store.js';
export type { RedisStore, RedisStoreOptions } from './redis-store.js';
export { guardRedisStore } from './claim-counter-guard.js';
export type { ClaimGuardOptions, GuardedRedisStore } from './claim-counter-guard.js';
export { checkRedisPersistence, VolatileStoreError } from './redis-persistence.js';
export type { PersistenceVerdict } from './redis-persistence.js';
export { StoreEpochError, StoreFullError, StoreUnavailableError } from './store.js';
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
