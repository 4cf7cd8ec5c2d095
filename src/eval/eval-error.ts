import { InputError } from '../errors/toolwright-error.js';

/** What went wrong in an eval run; the CLI exits 2 with the message for all but `reply-shape`. */
export type EvalErrorCode =
  /** A case file that does not fit the documented shape; the message says where. */
  | 'case-file'
  /** A provider choice (`--model`, `--base-url`) that cannot be used. */
  | 'model-target'
  /** A reply that is not the documented shape; counted as a failed trial with this reason. */
  | 'reply-shape'
  /** A request that failed on the wire or with an HTTP error; counted as an error, never as a score. */
  | 'provider-call';

/** The one error class of `eval`; `code` says which failure it is. */
export class EvalError extends InputError {
  readonly errorCode = 'eval' as const;
  override readonly name = 'EvalError';
  /**
   * @param unreachable for `provider-call`: the endpoint could not be reached at all (no HTTP answer).
   */
  constructor(readonly code: EvalErrorCode, message: string, readonly unreachable = false) {
    super(message);
  }
}
