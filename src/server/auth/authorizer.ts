/** The authorizer contract: who is calling, decided once per request from its headers. */
import type { AuthInfo } from '../contract/tool-types.js';

/** Decides who is calling. Return null to refuse the request (HTTP 401). */
export type Authorizer = (request: AuthorizeRequest) => AuthInfo | null | Promise<AuthInfo | null>;

/** What an {@link Authorizer} can see. */
export interface AuthorizeRequest {
  transport: 'http' | 'stdio' | 'console';
  /** Reads a request header (lower-case name); always undefined on stdio. */
  header(lowerCaseName: string): string | undefined;
  /** The bearer token of `Authorization: Bearer ...`, if any. */
  bearerToken: string | undefined;
}
