/** Escape one JSON pointer reference token (RFC 6901: "~" → "~0", "/" → "~1"). */
export function escapePointerToken(token: string): string {
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Undo {@link escapePointerToken}. */
export function unescapePointerToken(token: string): string {
  if (!token.includes('~')) return token;
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Follow a JSON pointer ("" or "/a/0/b"; a leading "#" fragment form is accepted and
 * percent-decoded) through plain JSON data. Returns undefined when any step is missing.
 */
export function resolvePointer(root: unknown, pointer: string): unknown {
  let text = pointer;
  if (text.startsWith('#')) {
    try { text = decodeURIComponent(text.slice(1)); } catch { return undefined; }
  }
  if (text === '') return root;
  if (!text.startsWith('/')) return undefined;
  let current: unknown = root;
  for (const raw of text.slice(1).split('/')) {
    const token = unescapePointerToken(raw);
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}
