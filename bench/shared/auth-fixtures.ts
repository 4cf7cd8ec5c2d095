// The callers of the `auth` suite, shared by the server program (which grants them) and the
// harness (which sends their tokens and computes the list each must see), so both agree by
// construction and the harness can check every answer against an independent expectation.

/** How many callers the views row rotates over; each has a view of its own. */
export const VIEW_CALLERS = 100;
/** Tools in the views catalog: `calculate_sum` plus 99 fillers, one page at the default page size (100). */
export const VIEW_CATALOG_SIZE = 100;
/** The scope a filler tool whose index is a multiple of 10 additionally requires. */
export const ADMIN_SCOPE = 'arm:admin';

/** What the auth server reads from `--auth-file` (written by the harness for one run). */
export interface AuthFixture {
  /** The one token `staticTokenAuthorizer` accepts (same length as `jwt`, so requests are byte-for-byte the same size). */
  readonly staticToken: string;
  /** A JWT signed by the key in `jwks`, for the `jwt` variant. */
  readonly jwt: string;
  /** The public key set `jwtAuthorizer({ jwks })` verifies with. */
  readonly jwks: { keys: Record<string, unknown>[] };
  readonly issuer: string;
  readonly resource: string;
}

/** Caller `index`'s bearer token: 43 characters of token68, distinct per caller. */
export function viewToken(index: number): string {
  const head = `bench.view.caller.${String(index).padStart(3, '0')}.`;
  return head + 'k'.repeat(43 - head.length);
}

/** Who caller `index` is: its own subject and tenant; even callers also hold {@link ADMIN_SCOPE}. */
export function viewCaller(index: number): { subject: string; clientId: string; scopes: string[]; extra: { tenant: string } } {
  return {
    subject: `caller-${index}`,
    clientId: 'toolwright-bench',
    scopes: index % 2 === 0 ? ['arm:read', ADMIN_SCOPE] : ['arm:read'],
    extra: { tenant: tenantOf(index) },
  };
}

/** Tenant name of caller `index`. */
export function tenantOf(index: number): string {
  return `tenant-${String(index).padStart(3, '0')}`;
}

/**
 * The gating of catalog tool `toolIndex` (0 is `calculate_sum`, never gated): filler `k` is hidden
 * from tenant `k`, and a filler whose index is a multiple of 10 also requires {@link ADMIN_SCOPE}.
 * So caller 0 sees every tool, an even caller `i` all but tool `i`, an odd caller `i` all but tool
 * `i` and the ten-multiples: 100 distinct views.
 */
export function gateOf(toolIndex: number): { tenants: string[]; scopes?: string[] } | undefined {
  if (toolIndex === 0) return undefined;
  const tenants: string[] = [];
  for (let caller = 0; caller < VIEW_CALLERS; caller++) if (caller !== toolIndex) tenants.push(tenantOf(caller));
  return toolIndex % 10 === 0 ? { tenants, scopes: [ADMIN_SCOPE] } : { tenants };
}

/** Whether caller `callerIndex` sees catalog tool `toolIndex`: the rule {@link gateOf} states, computed directly. */
export function sees(callerIndex: number, toolIndex: number): boolean {
  if (toolIndex === 0) return true;
  if (toolIndex === callerIndex) return false;
  return toolIndex % 10 !== 0 || callerIndex % 2 === 0;
}
