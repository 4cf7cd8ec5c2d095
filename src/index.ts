/**
 * toolwright: define MCP tools as JSON Schema 2020-12 contracts and serve them over MCP 2026-07-28
 * (Streamable HTTP and stdio).
 */
export * from './server/index.js';
export * from './protocol/index.js';
export * from './transport/index.js';
