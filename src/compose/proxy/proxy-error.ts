import { DefinitionError } from '../../errors/toolwright-error.js';

/** Why a proxy could not be set up (per-call failures are `isError` results, never thrown). */
export type ProxyErrorCode =
  /** The options are unusable (bad prefix, limits that are not positive integers, no target). */
  | 'invalid_options'
  /** The upstream could not be reached, or its `tools/list` failed, when the proxy was set up. */
  | 'upstream_unavailable'
  /** Two tools of the upstream end with the same local name (the upstream listed a name twice, or a rename made one). */
  | 'name_collision'
  /** A module to mount could not be loaded, or its default export is not a Toolwright server. */
  | 'invalid_mount';

/**
 * Raised by `toolsFromUpstream` (and `createProxyServer`) when a proxy cannot be set up: its
 * `code` says why, the message names the upstream and the tool.
 */
export class ProxyError extends DefinitionError {
  readonly errorCode = 'proxy' as const;
  readonly code: ProxyErrorCode;
  constructor(code: ProxyErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProxyError';
    this.code = code;
  }
}

/** One problem of a proxy configuration: where (a JSON pointer into the configuration) and what. */
export interface ProxyConfigProblem {
  /** JSON pointer into the configuration ("" is the whole of it), e.g. `/upstreams/0/http/url`. */
  pointer: string;
  message: string;
}

/** A proxy configuration (`toolwright proxy --config`, `createProxyServer`) that breaks its schema or its rules. */
export class ProxyConfigError extends DefinitionError {
  readonly errorCode = 'proxy-config' as const;
  readonly problems: readonly ProxyConfigProblem[];
  constructor(problems: readonly ProxyConfigProblem[]) {
    super(`invalid proxy configuration:\n${problems.map((p) => `- ${p.pointer || '/'}: ${p.message}`).join('\n')}`);
    this.name = 'ProxyConfigError';
    this.problems = problems;
  }
}
