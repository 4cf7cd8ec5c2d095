/**
 * The 2025 (legacy) wire: `initialize`-based sessions on Streamable HTTP (http-wire.ts) and stdio
 * (stdio.ts), each request translated onto the 2026-07-28 pipeline (session.ts). The era routers
 * (src/server/era-router/) decide what comes here; nothing outside this folder imports its files
 * but through this index.
 */
export { createLegacyHttpWire, initializeRecord, resolveLegacyOptions } from './http-wire.js';
export type { LegacyHttpWire, LegacyWireEnvironment, LegacyWireOptions } from './http-wire.js';
export { holdsInitialize, initializeInBatch } from './batch.js';
export { LegacySessionWire } from './session.js';
export type { LegacyServerInfo } from './session.js';
export type { LegacySessionRecord } from './session-store.js';
export { StdioLegacySession } from './stdio.js';
