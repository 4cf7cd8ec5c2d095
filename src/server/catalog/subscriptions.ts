/**
 * `subscriptions/listen` (digest §1.1, R-33): a client opens a long-lived request naming the
 * change notifications it wants; the server acknowledges on that request's stream, then sends
 * only the notifications the filter selected, each tagged with the subscription id (the listen
 * request's JSON-RPC id). The request ends when the client closes it or the server shuts down.
 */
import { META } from '../../protocol/constants.js';
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { SubscriptionFilter } from '../../protocol/feature-wire-types.js';
import type { CatalogViews, Viewer } from './catalog-view.js';
import type { AuthInfo } from '../contract/tool-types.js';
import type { ChangeNotifier, ListChangedKind } from '../contract/change-notifier.js';

export type { ChangeNotifier, ListChangedKind } from '../contract/change-notifier.js';

/** What the hub delivers; the kinds the server declared `listChanged` for, and resource updates. */
export interface SubscriptionSupport {
  listChanged: ReadonlySet<ListChangedKind>;
  resourceUpdates: boolean;
  /** Whether the server runs tasks (then `taskIds` filters are kept). */
  tasks?: boolean;
}

interface OpenSubscription {
  id: JsonRpcId;
  /** The listener's subject ('' when anonymous): task notifications go only to the task's creator. */
  subject: string;
  filter: SubscriptionFilter;
  /** The caller as it opened the stream, and its view key of each gated kind it listens to (catalog-view.ts). */
  viewer: Viewer | undefined;
  keys: Map<ListChangedKind, string>;
  notify(notification: JsonRpcNotification): void;
  end(): void;
}

const FILTER_KEY: Readonly<Record<ListChangedKind, 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'>> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

/**
 * Reads and narrows a filter to what this server delivers.
 * @returns the narrowed filter, or an error message for a malformed one.
 */
export function acceptFilter(raw: unknown, support: SubscriptionSupport): { filter: SubscriptionFilter } | { problem: string } {
  if (!isJsonObject(raw)) return { problem: 'Invalid params: subscriptions/listen needs a "notifications" object (SubscriptionFilter)' };
  const filter: SubscriptionFilter = {};
  for (const kind of ['tools', 'prompts', 'resources'] as const) {
    const key = FILTER_KEY[kind];
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') return { problem: `Invalid params: notifications.${key} must be a boolean` };
    if (value && support.listChanged.has(kind)) filter[key] = true;
  }
  const uris = raw.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((u) => typeof u === 'string')) return { problem: 'Invalid params: notifications.resourceSubscriptions must be an array of URIs' };
    if (support.resourceUpdates && uris.length > 0) filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  const taskIds = raw.taskIds;
  if (taskIds !== undefined) {
    if (!Array.isArray(taskIds) || !taskIds.every((t) => typeof t === 'string')) return { problem: 'Invalid params: notifications.taskIds must be an array of task ids' };
    if (support.tasks === true && taskIds.length > 0) filter.taskIds = [...new Set(taskIds as string[])];
  }
  return { filter };
}

/** Holds the open subscriptions of one server. */
export class SubscriptionHub implements ChangeNotifier {
  readonly #open = new Set<OpenSubscription>();
  readonly #views: CatalogViews | undefined;

  /** `views`: who sees what; a list kind with `visibleTo` entries notifies a listener only when its view changed. */
  constructor(views?: CatalogViews) {
    this.#views = views;
  }

  /** Number of open subscriptions (for tests and metrics). */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Acknowledges and holds one listen request until `signal` aborts (client gone: resolves
   * 'cancelled') or the hub closes (resolves 'closed'). `auth`: the authorization the stream was
   * opened with, kept for its lifetime: list changes are judged against that caller's view.
   */
  hold(id: JsonRpcId, filter: SubscriptionFilter, notify: (n: JsonRpcNotification) => void, signal: AbortSignal, subject = '', auth?: AuthInfo): Promise<'cancelled' | 'closed'> {
    const tag = { [META.subscriptionId]: id };
    notify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: filter, _meta: tag } });
    if (signal.aborted) return Promise.resolve('cancelled');
    const views = this.#views;
    const viewer = views?.viewerOf(auth);
    const keys = new Map<ListChangedKind, string>();
    if (views !== undefined && viewer !== undefined) {
      for (const kind of ['tools', 'prompts', 'resources'] as const) if (filter[FILTER_KEY[kind]] === true && views.gates(kind)) keys.set(kind, views.keyOf(kind, viewer));
    }
    return new Promise((resolve) => {
      const subscription: OpenSubscription = {
        id,
        subject,
        filter,
        viewer,
        keys,
        notify,
        end: () => finish('closed'),
      };
      const onAbort = (): void => finish('cancelled');
      const finish = (how: 'cancelled' | 'closed'): void => {
        if (!this.#open.delete(subscription)) return;
        signal.removeEventListener('abort', onAbort);
        resolve(how);
      };
      this.#open.add(subscription);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Where `kind` has `visibleTo` entries, a listener is told only when its own view key changed
   * (the server calls this after changing state a predicate reads); otherwise every listener is.
   */
  notifyListChanged(kind: ListChangedKind): number {
    const key = FILTER_KEY[kind];
    const views = this.#views !== undefined && this.#views.gates(kind) ? this.#views : undefined;
    let sent = 0;
    for (const subscription of this.#open) {
      if (subscription.filter[key] !== true) continue;
      if (views !== undefined && subscription.viewer !== undefined) {
        const now = views.keyOf(kind, subscription.viewer);
        if (subscription.keys.get(kind) === now) continue;
        subscription.keys.set(kind, now);
      }
      subscription.notify({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed`, params: { _meta: { [META.subscriptionId]: subscription.id } } });
      sent++;
    }
    return sent;
  }

  notifyResourceUpdated(uri: string): number {
    let sent = 0;
    for (const subscription of this.#open) {
      if (subscription.filter.resourceSubscriptions?.includes(uri) !== true) continue;
      const params: JsonObject = { uri, _meta: { [META.subscriptionId]: subscription.id } };
      subscription.notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params });
      sent++;
    }
    return sent;
  }

  /** Sends `notifications/tasks` (params: the DetailedTask) to the creator's streams that listen for `taskId`. Returns how many. */
  notifyTask(owner: string, taskId: string, detail: JsonObject): number {
    let sent = 0;
    for (const subscription of this.#open) {
      if (subscription.subject !== owner || subscription.filter.taskIds?.includes(taskId) !== true) continue;
      subscription.notify({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...detail, _meta: { ...(isJsonObject(detail._meta) ? detail._meta : {}), [META.subscriptionId]: subscription.id } } });
      sent++;
    }
    return sent;
  }

  /** Ends every open subscription (server shutdown). */
  close(): void {
    for (const subscription of [...this.#open]) subscription.end();
  }
}
