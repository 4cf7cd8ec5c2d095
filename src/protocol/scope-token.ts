/**
 * OAuth scope-token syntax (RFC 6749 section 3.3): `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`,
 * i.e. one or more printable ASCII characters other than space, `"` and `\`. A scope list on the
 * wire is these tokens joined by single spaces, so a token holding a space would silently become
 * two scopes, and a quote or backslash would break the quoted `scope="..."` of a `WWW-Authenticate`
 * challenge. The one checker of a definition's `scopes`, used by `defineTool`, `defineResource`,
 * `defineResourceTemplate`, `definePrompt` and the linter's `security/scope-token` rule.
 */

/**
 * The tool descriptor's `_meta` key under which `defineTool` advertises the scopes a tool requires
 * (absent when it requires none), so that `tools/list` readers (hosts choosing the scope to ask
 * for, `toolwright lint` on any target) see them. The server enforces its own copy, never this one.
 */
export const TOOL_SCOPES_META_KEY = 'dev.toolwright/scopes';

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** True when `value` is one RFC 6749 scope token. */
export function isScopeToken(value: unknown): value is string {
  return typeof value === 'string' && SCOPE_TOKEN.test(value);
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why `value` is not a scope token (e.g. `it contains a space`), or undefined when it is one. */
export function scopeTokenProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `it is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a string`;
  if (value === '') return 'it is empty';
  if (SCOPE_TOKEN.test(value)) return undefined;
  for (const char of value) {
    if (char === ' ') return 'it contains a space (a scope list is space-separated, so this would be several scopes)';
    if (char === '"') return 'it contains a double quote (")';
    if (char === '\\') return 'it contains a backslash (\\)';
    const code = char.codePointAt(0)!;
    if (code > 0x7e) return `it contains the non-ASCII character ${codePoint(char)}`;
    if (code < 0x21) return `it contains the control or whitespace character ${codePoint(char)}`;
  }
  return 'it is not a scope token';
}

/** One problem of a scope list: which entry (absent when the list itself is wrong) and why. */
export interface ScopeListProblem {
  /** Index of the offending entry in the list, or undefined when the value is not a list. */
  index: number | undefined;
  /** Names the entry and the value, e.g. `scopes[1] "a b" is not a scope token (RFC 6749 section 3.3): it contains a space`. */
  message: string;
}

function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/**
 * Every problem of a definition's `scopes`: absent is fine (no scope required); otherwise an
 * array of distinct scope tokens. Duplicates are refused: a required set holds each scope once,
 * and a repeated token is almost always a typo for another scope (it would also be named twice in
 * the 403 answer and its challenge).
 */
export function scopeListProblems(scopes: unknown): ScopeListProblem[] {
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes)) return [{ index: undefined, message: `scopes must be an array of scope tokens, got ${scopes === null ? 'null' : typeof scopes}` }];
  const problems: ScopeListProblem[] = [];
  const firstIndex = new Map<string, number>();
  for (const [index, scope] of scopes.entries()) {
    const problem = scopeTokenProblem(scope);
    if (problem !== undefined) {
      problems.push({ index, message: `scopes[${index}] ${shown(scope)} is not a scope token (RFC 6749 section 3.3): ${problem}` });
      continue;
    }
    const first = firstIndex.get(scope as string);
    if (first !== undefined) problems.push({ index, message: `scopes[${index}] ${shown(scope)} repeats scopes[${first}]` });
    else firstIndex.set(scope as string, index);
  }
  return problems;
}

/** The scope a caller must hold for its elicitation answers to approve (`createServer({ approverScope })`). */
export const DEFAULT_APPROVER_SCOPE = 'toolwright:approve';
