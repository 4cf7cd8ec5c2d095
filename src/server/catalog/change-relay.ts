/**
 * Change notifications across instances: `server.notifyListChanged()`,
 * `server.notifyResourceUpdated()` and task status changes (`notifications/tasks`, from the
 * instance that wrote the task record) raised on one instance reach the subscriptions held by every
 * instance that shares the store (2026-07-28 `subscriptions/listen` streams and legacy GET streams
 * alike), through the store's publish/subscribe. Each instance delivers its own notifications at
 * once and ignores its own echo; a store without publish/subscribe delivers locally only.
 */
import { randomUUID } from 'node:crypto';
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonValue } from '../../protocol/json-rpc.js';
import type { ChangeNotifier, ListChangedKind, SubscriptionHub } from './subscriptions.js';
import type { Store } from '../store/store.js';

const CHANNEL = 'change-notifications';
const KINDS: ReadonlySet<string> = new Set<ListChangedKind>(['tools', 'prompts', 'resources']);

/** A {@link ChangeNotifier} that also tells the other instances; `close` stops listening to them. */
export interface ChangeRelay extends ChangeNotifier {
  /** `notifications/tasks` for the creator's streams, here and on the other instances. */
  notifyTask(owner: string, taskId: string, detail: JsonObject): number;
  /** Settles once this instance hears the others (at once without publish/subscribe; also when subscribing failed). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Relays `local`'s notifications through `store`. The returned counts are of this instance's
 * streams (the others count theirs). `onError` hears of a failed publish or subscribe.
 */
export function relayChanges(local: ChangeNotifier & Pick<SubscriptionHub, 'notifyTask'>, store: Store, onError: (what: string, error: unknown) => void): ChangeRelay {
  if (store.publish === undefined || store.subscribe === undefined) return { ...bind(local), ready: Promise.resolve(), close: async () => undefined };
  const instance = randomUUID();
  const publish = store.publish.bind(store);
  const unsubscribe = store.subscribe(CHANNEL, (message) => {
    if (!isJsonObject(message) || message.from === instance) return;
    if (typeof message.list === 'string' && KINDS.has(message.list)) local.notifyListChanged(message.list as ListChangedKind);
    else if (typeof message.uri === 'string') local.notifyResourceUpdated(message.uri);
    else if (typeof message.owner === 'string' && typeof message.taskId === 'string' && isJsonObject(message.detail)) local.notifyTask(message.owner, message.taskId, message.detail);
  }).catch((error: unknown) => {
    onError('cannot subscribe to change notifications of other instances; only this instance\'s streams get its own', error);
    return undefined;
  });
  const tell = (message: { list: ListChangedKind } | { uri: string } | { owner: string; taskId: string; detail: JsonObject }): void => {
    publish(CHANNEL, { ...message, from: instance } as JsonValue).catch((error: unknown) => onError('cannot tell other instances of a change', error));
  };
  return {
    ready: unsubscribe.then(() => undefined),
    notifyListChanged(kind) {
      tell({ list: kind });
      return local.notifyListChanged(kind);
    },
    notifyResourceUpdated(uri) {
      tell({ uri });
      return local.notifyResourceUpdated(uri);
    },
    notifyTask(owner, taskId, detail) {
      tell({ owner, taskId, detail });
      return local.notifyTask(owner, taskId, detail);
    },
    async close() {
      (await unsubscribe)?.();
    },
  };
}

function bind(local: ChangeNotifier & Pick<SubscriptionHub, 'notifyTask'>): Omit<ChangeRelay, 'ready' | 'close'> {
  return {
    notifyListChanged: (kind) => local.notifyListChanged(kind),
    notifyResourceUpdated: (uri) => local.notifyResourceUpdated(uri),
    notifyTask: (owner, taskId, detail) => local.notifyTask(owner, taskId, detail),
  };
}
