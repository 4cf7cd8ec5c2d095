/**
 * Every protocol revision Toolwright names, in one place. The server and the client differ on
 * purpose: the server's legacy wire serves the three 2025 revisions, while the client also speaks
 * 2024-11-05 to older servers it connects to. The two lists have two names so that neither is
 * mistaken for the other.
 */

/** The protocol revision this package implements. */
export const PROTOCOL_VERSION = '2026-07-28';

/** Every revision a request may name in `_meta`; anything else gets -32022. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([PROTOCOL_VERSION]);

/** The 2025 revisions the server serves on its legacy (`initialize`-based) wire, newest first. */
export const SERVER_LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26']);

/** The legacy revisions the client speaks after `initialize`, newest first: the server's, and 2024-11-05. */
export const CLIENT_LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([...SERVER_LEGACY_PROTOCOL_VERSIONS, '2024-11-05']);
