import { InputError } from '../../errors/toolwright-error.js';

/** Why a whole OpenAPI document could not be imported (per-operation problems are reported, not thrown). */
export type OpenApiImportErrorCode =
  | 'invalid_document'
  | 'invalid_ref'
  | 'name_collision'
  | 'no_base_url'
  | 'invalid_options';

/** Raised by {@link toolsFromOpenApi} when the document as a whole cannot become tools. */
export class OpenApiImportError extends InputError {
  readonly errorCode = 'openapi-import' as const;
  readonly code: OpenApiImportErrorCode;
  constructor(code: OpenApiImportErrorCode, message: string) {
    super(message);
    this.name = 'OpenApiImportError';
    this.code = code;
  }
}

/** What kind of per-operation problem an import met. */
export type ImportProblemCode =
  | 'ref-cycle'
  | 'ref-unresolved'
  | 'missing-operation-id'
  | 'cookie-parameter'
  | 'ignored-header'
  | 'unsupported-parameter'
  | 'parameter-clash'
  | 'unsupported-body'
  | 'output-not-object'
  | 'missing-credentials'
  | 'invalid-tool';

/**
 * One thing the import could not carry over as it stood. `skipped` means no tool was made for the
 * operation; `warning` means the tool was made but something of the operation is not represented;
 * `info` is a note about a choice the import made (e.g. a derived name).
 */
export interface ImportProblem {
  /** `METHOD /path`, e.g. `GET /pets/{id}`. */
  operation: string;
  code: ImportProblemCode;
  severity: 'skipped' | 'warning' | 'info';
  message: string;
}
