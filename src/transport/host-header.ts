/**
 * Strict parsing of the HTTP `Host` header (RFC 9110 §7.2: uri-host [":" port]). Anything else, a
 * second Host header included, is refused before the allow-list is consulted, so that no lenient
 * reading ("a.example, localhost", "localhost@evil", "localhost:80:81") can slip past it.
 */

const REG_NAME = /^[a-z0-9._~!$&'()*+;=%-]+$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/** The host name (lower case, brackets kept for IPv6) of a well-formed Host value, else undefined. */
export function parseHostHeader(value: string): string | undefined {
  const text = value.toLowerCase();
  if (text === '' || text.length > 1024) return undefined;
  let name: string;
  let port: string | undefined;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return undefined;
    name = text.slice(0, end + 1);
    const rest = text.slice(end + 1);
    if (rest !== '') { if (!rest.startsWith(':')) return undefined; port = rest.slice(1); }
    if (!IPV6.test(name)) return undefined;
  } else {
    const colon = text.indexOf(':');
    name = colon < 0 ? text : text.slice(0, colon);
    if (colon >= 0) port = text.slice(colon + 1);
    if (!REG_NAME.test(name)) return undefined;
  }
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535)) return undefined;
  return name;
}

/** How many Host headers a raw header list (name, value, name, value, ...) carries. */
export function countHostHeaders(rawHeaders: readonly string[]): number {
  let count = 0;
  // Only a four-letter name can be "host": the others are not lower-cased at all.
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) count++;
  }
  return count;
}
