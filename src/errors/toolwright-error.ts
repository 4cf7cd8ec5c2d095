/**
 * The one error hierarchy of Toolwright. Every error the toolkit throws on purpose is a
 * {@link ToolwrightError} of one role, and within the role `errorCode` (a closed union per role)
 * says which error it is. The named classes (`StoreFullError`, `McpClientError`, ...) stay: each
 * extends its role's class, so `instanceof` on the old names keeps holding, while a caller that
 * only cares about the role catches `StoreError` (or any `ToolwrightError`) and switches on
 * `errorCode`. Members the classes had before (`kind`, `code`, `reason`, ...) are unchanged.
 * This folder imports nothing, so every layer may use it (like json/).
 */

/** Each role, and the codes of the errors that play it. */
export interface ErrorCodes {
  /** Something a developer or operator wrote is refused before anything runs (a definition, a config, a key). */
  readonly definition: 'tool-definition' | 'server-definition' | 'schema' | 'pattern' | 'lint-config' | 'gateway-config' | 'audit-key' | 'volatile-store' | 'transform' | 'proxy' | 'proxy-config' | 'mount';
  /** Shared state refused an operation at run time; the operation did not happen (fail closed). */
  readonly store: 'store-unavailable' | 'store-epoch' | 'store-full' | 'task-write-conflict' | 'log-locked';
  /** A peer or the wire failed: a JSON-RPC error, a client-side failure, a bearer token, OAuth metadata. */
  readonly wire: 'protocol' | 'client' | 'bearer-token' | 'oauth-metadata' | 'message-too-deep';
  /** An input handed to a command or a library call cannot be used (a command line, a target, a lockfile, a case file, a provider). */
  readonly input: 'usage' | 'module-import' | 'tool-target' | 'diff-target' | 'pin-lock' | 'eval' | 'host' | 'openapi-import';
}

/** The role of a {@link ToolwrightError}. */
export type ErrorRole = keyof ErrorCodes;

/** Any code of any role. */
export type ToolwrightErrorCode = ErrorCodes[ErrorRole];

/** The base of every error Toolwright throws on purpose; see {@link ErrorCodes} for the roles and codes. */
export abstract class ToolwrightError<R extends ErrorRole = ErrorRole> extends Error {
  /** Which role the error plays. */
  abstract readonly role: R;
  /** Which error of its role it is (stable; the class name says the same). */
  abstract readonly errorCode: ErrorCodes[R];
}

/** A definition, configuration or key refused before anything runs. */
export abstract class DefinitionError extends ToolwrightError<'definition'> {
  readonly role = 'definition' as const;
}

/** Shared state refused an operation; nothing was done. */
export abstract class StoreError extends ToolwrightError<'store'> {
  readonly role = 'store' as const;
}

/** A failure on the wire or of a peer. */
export abstract class WireError extends ToolwrightError<'wire'> {
  readonly role = 'wire' as const;
}

/** An input of a command or library call that cannot be used. */
export abstract class InputError extends ToolwrightError<'input'> {
  readonly role = 'input' as const;
}
