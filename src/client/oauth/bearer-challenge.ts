/** Reading a `WWW-Authenticate: Bearer ...` challenge (RFC 6750 §3, RFC 9728 §5.1). */

/** The parameters of the Bearer challenge, lower-case names. */
export interface BearerChallenge {
  readonly error?: string;
  readonly errorDescription?: string;
  /** Space-separated scopes the server asks for. */
  readonly scope?: string;
  /** RFC 9728: where the resource's metadata is. */
  readonly resourceMetadata?: string;
}

/**
 * The Bearer challenge of a `WWW-Authenticate` value (which may list several schemes), or
 * undefined when there is none. Quoted and token values are both read; unknown parameters are ignored.
 */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  if (header === null || header === undefined) return undefined;
  const start = /(?:^|,)\s*bearer(?:\s+|$)/i.exec(header);
  if (start === null) return undefined;
  const params: Record<string, string> = {};
  const pattern = /\s*([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))\s*(,|$)/y;
  pattern.lastIndex = start.index + start[0].length;
  for (;;) {
    const at = pattern.lastIndex;
    const match = pattern.exec(header);
    if (match === null) {
      pattern.lastIndex = at;
      break;
    }
    const name = match[1]!.toLowerCase();
    // The next scheme begins where a "name=" is missing: the loop stops there.
    params[name] ??= match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
    if (match[4] === '') break;
  }
  return {
    ...(params.error !== undefined ? { error: params.error } : {}),
    ...(params.error_description !== undefined ? { errorDescription: params.error_description } : {}),
    ...(params.scope !== undefined ? { scope: params.scope } : {}),
    ...(params.resource_metadata !== undefined ? { resourceMetadata: params.resource_metadata } : {}),
  };
}
