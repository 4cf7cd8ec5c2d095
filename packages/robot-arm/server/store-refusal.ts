import { StoreError } from 'toolwright';
import type { Refusal } from './safety-stages.js';

/**
 * The refusal of a call whose plan or rate limit the server's store could not read or write (a shared
 * store unreachable, a bounded one full): nothing is planned or moved without it, as the toolkit's
 * approvals fail closed. Anything but a store error is rethrown.
 */
export function storeRefusal(error: unknown, stage: Refusal['stage']): Refusal {
  if (!(error instanceof StoreError)) throw error;
  return { stage, code: 'store_unavailable', message: `the server's store did not answer (${error.message}); nothing was planned or moved, retry when it is back` };
}
