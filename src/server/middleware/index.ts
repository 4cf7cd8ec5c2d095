/** The built-in tools/call middleware, each in its own folder. */
export { rateLimit } from './rate-limit/index.js';
export type { RateLimitOptions, RateLimitMiddleware } from './rate-limit/index.js';
export { auditLog } from './audit/index.js';
export type { AuditLog, AuditLogOptions, AuditEntry } from './audit/index.js';
export { resultBudget, TRUNCATION_META_KEY } from './result-budget/index.js';
export type { ResultBudgetOptions } from './result-budget/index.js';
export { lenientCoercion, REPAIRS_META_KEY } from './lenient-coercion/index.js';
export type { Repair } from './lenient-coercion/index.js';
export { tracing } from './tracing/index.js';
export type { TracingOptions } from './tracing/index.js';
export { refuse } from './middleware.js';
export type { Middleware, ToolCall, CallOutcome } from './middleware.js';
