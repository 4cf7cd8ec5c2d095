import type { LogLevel } from './tool-types.js';

/** The `notifications/message` severities in syslog order, lowest first (the one list of them). */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
