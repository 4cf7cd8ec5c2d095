/**
 * A 2025 session's GET stream, through the relay: what the server sends outside any request
 * (`notifications/tools/list_changed`, resource updates, requests that belong to no call) goes to
 * the host as it arrives. A stream that ends or fails is opened again after a growing delay, at most
 * `maxReconnects` times in a row; then the relay stops trying until a later message reaches the
 * server (stdio-relay.ts starts it again). A stream that stayed open a while, or delivered an event,
 * resets the count: a long-lived stream that a proxy cuts now and then is not a failure streak.
 */
import type { UpstreamHttp } from './upstream-http.js';
import { isEventStream, isUnreachable } from './upstream-http.js';

/** Settings of one listening loop. */
export interface ListenSettings {
  readonly http: UpstreamHttp;
  /** The session's headers and the bridge's Authorization, read at each attempt (the token may be reloaded). */
  readonly headers: () => Record<string, string>;
  /** Each event's data, written to the host as it is. */
  readonly deliver: (data: string) => void;
  readonly log: (line: string) => void;
  readonly maxReconnects: number;
  readonly reconnectDelayMs: number;
}

const MAX_DELAY_MS = 10_000;
/** A stream open this long counts as a working one, whatever happened next. */
const HEALTHY_MS = 5_000;

/** Why the loop ended. */
export type ListenEnd = 'stopped' | 'not-offered' | 'session-gone' | 'gave-up';

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Keeps the GET stream open until `signal` aborts or the bound of attempts is spent. */
export async function listen(settings: ListenSettings, signal: AbortSignal): Promise<ListenEnd> {
  const { http, log } = settings;
  let failures = 0;
  let lastEventId: string | undefined;
  while (!signal.aborted) {
    const openedAt = Date.now();
    let healthy = false;
    let response;
    try {
      response = await http.get({ ...settings.headers(), ...(lastEventId !== undefined ? { 'Last-Event-ID': lastEventId } : {}) }, signal);
    } catch {
      return 'stopped';
    }
    if (isUnreachable(response)) log(`GET stream: cannot reach ${http.url.href}: ${response.unreachable}`);
    else if (response.status === 405) {
      await response.body?.cancel().catch(() => {});
      return 'not-offered';
    } else if (response.status === 404) {
      await response.body?.cancel().catch(() => {});
      return 'session-gone';
    } else if (!response.ok || !isEventStream(response)) {
      await response.body?.cancel().catch(() => {});
      log(`GET stream: ${http.url.href} answered HTTP ${response.status}${response.ok ? ' without an event stream' : ''}`);
    } else {
      const end = await http.readEvents(response, (data) => {
        settings.deliver(data);
        return false;
      });
      if (end.lastEventId !== undefined) lastEventId = end.lastEventId;
      healthy = end.delivered || Date.now() - openedAt >= HEALTHY_MS;
    }
    if (signal.aborted) return 'stopped';
    failures = healthy ? 1 : failures + 1;
    if (failures > settings.maxReconnects) {
      log(`GET stream: gave up after ${settings.maxReconnects} attempts in a row; it is opened again after the next message that reaches the server`);
      return 'gave-up';
    }
    await pause(Math.min(settings.reconnectDelayMs * 2 ** (failures - 1), MAX_DELAY_MS), signal);
  }
  return 'stopped';
}
