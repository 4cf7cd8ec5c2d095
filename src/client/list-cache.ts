/** One cached, fully paged list result. */
export interface ListCacheEntry<T> {
  value: T;
  /** Epoch ms after which the entry is stale. */
  expiresAt: number;
  cacheScope: 'public' | 'private';
}

/**
 * Where clients keep cacheable results (`tools/list`, `server/discover`). Pass one cache to several
 * clients to share `public` results between them; `private` results are keyed by the client's
 * authorization context and so are never served to another one (digest C-08).
 */
export interface ListCache {
  /** The entry under `key`, fresh or not (the client checks its expiry). */
  get(key: string): ListCacheEntry<unknown> | undefined;
  /** Stores an entry under `key`. */
  set(key: string, entry: ListCacheEntry<unknown>): void;
  /** Forgets the entry under `key` (e.g. after `list_changed`). */
  delete(key: string): void;
}

/** An in-memory {@link ListCache}. */
export function createListCache(): ListCache {
  const entries = new Map<string, ListCacheEntry<unknown>>();
  return {
    get: (key) => entries.get(key),
    set: (key, entry) => {
      entries.set(key, entry);
    },
    delete: (key) => {
      entries.delete(key);
    },
  };
}

/** Cache key of a result: method, endpoint and, for private results, the authorization context. */
export function listCacheKey(method: string, identity: string, scope: 'public' | 'private', authContext: string): string {
  return scope === 'public' ? `${method}\n${identity}\npublic` : `${method}\n${identity}\nprivate\n${authContext}`;
}

/** `ttlMs` as the spec says to read it: absent, negative or not a number means 0 (already stale). */
export function readTtl(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
