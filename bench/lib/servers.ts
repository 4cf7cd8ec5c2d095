// The servers under test and where their compiled programs live.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export type ServerId = 'bare' | 'sdk' | 'toolwright' | 'toolwright-middleware' | 'toolwright-empty-chain'
  | 'toolwright-auth-static' | 'toolwright-auth-jwt' | 'toolwright-views' | 'toolwright-one-view';

export interface ServerUnderTest {
  readonly id: ServerId;
  readonly label: string;
  /** Compiled HTTP server program. */
  readonly httpScript: string;
  /** Arguments choosing the configuration of `httpScript` (e.g. `--variant middleware`). */
  readonly httpArgs?: readonly string[];
  /** Compiled stdio server program. */
  readonly stdioScript: string;
  /** Whether the server validates arguments against the schema (the bare reference does not). */
  readonly validates: boolean;
  /** Programs serving 2025-era clients, when they differ (the SDK's modern programs reject them). */
  readonly legacyHttpScript?: string;
  /** Arguments of `legacyHttpScript`. */
  readonly legacyHttpArgs?: readonly string[];
  readonly legacyStdioScript?: string;
  /** Node flags to start its programs with (tests run the TypeScript sources via `--import tsx`). */
  readonly nodeFlags?: readonly string[];
}

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where `bench/tsconfig.json` compiles the server and load-generator programs. */
export const COMPILED_DIR = join(REPO_ROOT, '.cache', 'bench');
export const LOAD_WORKER = join(COMPILED_DIR, 'load', 'autocannon-worker.js');

function compiled(name: string): string {
  return join(COMPILED_DIR, 'servers', `${name}.js`);
}

export const SERVERS: readonly ServerUnderTest[] = [
  { id: 'bare', label: 'bare node:http / stdio (no validation)', httpScript: compiled('bare-http'), stdioScript: compiled('bare-stdio'), validates: false },
  { id: 'sdk', label: 'official SDK v2 2.4.0', httpScript: compiled('sdk-http'), stdioScript: compiled('sdk-stdio'), legacyHttpScript: compiled('sdk-http'), legacyHttpArgs: ['--variant', 'legacy'], legacyStdioScript: compiled('sdk-legacy-stdio'), validates: true },
  { id: 'toolwright', label: 'Toolwright', httpScript: compiled('toolwright-http'), stdioScript: compiled('toolwright-stdio'), validates: true },
];

/** Toolwright with rate limit + audit (no fsync, written every 10 ms: AUDIT_FLUSH_WITHIN_MS) + result budget on every call (the `middleware` suite only). */
export const MIDDLEWARE_SERVER: ServerUnderTest = {
  id: 'toolwright-middleware', label: 'Toolwright + rate limit, audit (no fsync, flushWithinMs 10), result budget',
  httpScript: compiled('toolwright-http'), httpArgs: ['--variant', 'middleware'], stdioScript: compiled('toolwright-stdio'), validates: true,
};

/** Toolwright with `use: []` (the `middleware` suite only): an empty chain must cost nothing measurable. */
export const EMPTY_CHAIN_SERVER: ServerUnderTest = {
  id: 'toolwright-empty-chain', label: 'Toolwright with an empty middleware chain (use: [])',
  httpScript: compiled('toolwright-http'), httpArgs: ['--variant', 'empty-chain'], stdioScript: compiled('toolwright-stdio'), validates: true,
};

/** The `auth` suite's program (`--variant static|jwt|views|one-view`; it also needs `--auth-file`). */
export const AUTH_SERVER_SCRIPT = compiled('toolwright-auth');

/** Why Toolwright cannot be measured in this checkout, or null when its build is present. */
export function toolwrightMissing(): string | null {
  if (!existsSync(join(REPO_ROOT, 'dist', 'index.js'))) return 'dist/index.js does not exist (src/index.ts not built: `npm run build`)';
  return null;
}
