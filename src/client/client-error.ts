import type { SchemaError } from '../schema/index.js';
import { WireError } from '../errors/toolwright-error.js';

/** What went wrong, from the caller's point of view. */
export type ClientErrorKind =
  /** The server answered with a JSON-RPC error (`code`, `message`, `data`; `httpStatus` on HTTP). */
  | 'rpc'
  /** HTTP answered with a status and no JSON-RPC response in the body. */
  | 'http'
  /** The connection failed: refused, stream ended before the response, process exited or could not start. */
  | 'transport'
  /** The server sent something that is not a valid MCP response (bad JSON, unknown `resultType`, wrong shape). */
  | 'protocol'
  /** No answer within the request timeout (the request was cancelled). */
  | 'timeout'
  /** The caller's AbortSignal fired (the request was cancelled). */
  | 'aborted'
  /** The client was closed before or while the request ran. */
  | 'closed'
  /** `structuredContent` does not match the tool's `outputSchema` (or is missing although one is declared). */
  | 'output_invalid'
  /** The server asked for input and there is no `onInputRequired`, it failed, or too many rounds were needed. */
  | 'input_required'
  /** The tool was excluded from `listTools()` because its `x-mcp-header` annotations break the spec. */
  | 'tool_excluded'
  /** The caller passed something unusable (bad target, non-object arguments). */
  | 'usage'
  /** The task of a `task: true` call was cancelled (by `cancel()` or otherwise) before it finished. */
  | 'task_cancelled'
  /** The OAuth flow could not give a token: discovery, registration, the user's approval, the token endpoint, or a check (issuer, resource, state) failed. */
  | 'auth';

/** Every failure of `toolwright/client` is one of these; `kind` says which. */
export class McpClientError extends WireError {
  readonly errorCode = 'client' as const;
  readonly kind: ClientErrorKind;
  /** JSON-RPC error code (kind `rpc`). */
  readonly code: number | undefined;
  /** JSON-RPC error data (kind `rpc`), or extra detail for other kinds. */
  readonly data: unknown;
  /** HTTP status of the response, when there was one. */
  readonly httpStatus: number | undefined;
  /** Output schema violations (kind `output_invalid`). */
  readonly errors: readonly SchemaError[];
  /** The method of the request that failed. */
  readonly method: string | undefined;
  /** The server's own `error.message` (kind `rpc`), without the client's framing. */
  readonly serverMessage: string | undefined;

  constructor(
    kind: ClientErrorKind,
    message: string,
    options: { code?: number; data?: unknown; httpStatus?: number; errors?: readonly SchemaError[]; method?: string; serverMessage?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'McpClientError';
    this.kind = kind;
    this.code = options.code;
    this.data = options.data;
    this.httpStatus = options.httpStatus;
    this.errors = options.errors ?? [];
    this.method = options.method;
    this.serverMessage = options.serverMessage;
  }
}
