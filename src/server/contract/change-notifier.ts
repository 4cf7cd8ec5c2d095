/**
 * What a server can announce to callers listening for changes (`subscriptions/listen`), declared
 * apart from the hub that delivers it (catalog/subscriptions.ts) so that what only announces (the
 * change relay across instances, mounts) depends on the announcement, not on the hub.
 */

/** Which list changed. */
export type ListChangedKind = 'tools' | 'prompts' | 'resources';

/** What a server can announce to open subscriptions. */
export interface ChangeNotifier {
  /**
   * Sends `notifications/<kind>/list_changed` to every open `subscriptions/listen` stream that
   * opted in. Returns how many streams were notified.
   */
  notifyListChanged(kind: ListChangedKind): number;
  /** Sends `notifications/resources/updated` to streams subscribed to `uri`. Returns how many. */
  notifyResourceUpdated(uri: string): number;
}
