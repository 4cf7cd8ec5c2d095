/** Browser side of the console plumbing: the token, JSON API calls and the live event stream. */

/** The console token the shell put in the page. */
export function consoleToken(): string {
  const meta = document.querySelector('meta[name="console-token"]');
  return meta?.getAttribute('content') ?? '';
}

/** Calls a console API route; resolves to the parsed JSON, throws with the server's error message. */
export async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/console${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-console-token': consoleToken(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(json.error ?? `HTTP ${response.status}`);
  return json;
}

/**
 * Opens the live channel; `handlers[event]` gets each event's data. The status line in the header
 * says whether the page is live (EventSource reconnects by itself).
 */
export function connectLive(handlers: Record<string, (data: unknown) => void>): EventSource {
  const source = new EventSource(`/console/events?token=${encodeURIComponent(consoleToken())}`);
  const status = document.getElementById('live');
  source.onopen = () => {
    if (status) status.textContent = 'live';
  };
  source.onerror = () => {
    if (status) status.textContent = 'disconnected, retrying…';
  };
  for (const [event, handler] of Object.entries(handlers)) {
    source.addEventListener(event, (e) => handler(JSON.parse((e as MessageEvent<string>).data) as unknown));
  }
  return source;
}

/** Creates an element with attributes and children (text or nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) element.append(child);
  return element;
}

/** Pretty JSON in a <pre>. */
export function jsonBlock(value: unknown, testId?: string): HTMLPreElement {
  return h('pre', testId === undefined ? {} : { 'data-testid': testId }, JSON.stringify(value, null, 2) ?? 'undefined');
}
