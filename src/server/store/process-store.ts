/**
 * The store a process was told to use from outside its code (`toolwright serve --store URL`):
 * `createServer` uses it when its options name no `store`, so a module that builds its own server
 * needs no change to run as one of several instances. Internal: not part of the public API.
 */
import type { Store } from './store.js';

let processStore: Store | undefined;

/** Sets (or, with undefined, clears) the store of servers created from now on without their own. */
export function setProcessStore(store: Store | undefined): void {
  processStore = store;
}

/** The store set by {@link setProcessStore}, if any. */
export function getProcessStore(): Store | undefined {
  return processStore;
}
