/**
 * The one rule for putting a server's prefix before a name: `<prefix>__<name>` (the Codex / Claude
 * Code style). Used by the host's provider names (`toolwright preview --prefix`) and by the server's
 * `mount` option, so a mounted tool and a preview of it are named alike.
 */

/** Separator between a server prefix and a name. */
export const PREFIX_SEPARATOR = '__';

/** `prefix` + `__` + `name`; with no prefix (undefined or empty), `name` itself. */
export function prefixedName(prefix: string | undefined, name: string): string {
  return prefix ? `${prefix}${PREFIX_SEPARATOR}${name}` : name;
}
