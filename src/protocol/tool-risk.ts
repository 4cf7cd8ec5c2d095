/**
 * One vocabulary for how risky a tool is and what a caller lacks, shared by the host's selection
 * (src/host/select-tools.ts) and the server's per-caller catalog (`visibleWhen`,
 * src/server/catalog/catalog-view.ts). Annotations are read with the spec's defaults: a tool that says
 * nothing counts as destructive and open-world.
 */
import type { ToolAnnotations } from './wire-types.js';

/** Not read-only and `destructiveHint` not false (the spec default is destructive). */
export function isDestructive(annotations: ToolAnnotations | undefined): boolean {
  return annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;
}

/** `openWorldHint` not false (the spec default is open-world). */
export function isOpenWorld(annotations: ToolAnnotations | undefined): boolean {
  return annotations?.openWorldHint !== false;
}

/** Why a tool counts as destructive, in words (for reports). */
export function destructiveReason(annotations: ToolAnnotations | undefined): string {
  return annotations?.destructiveHint === true ? 'destructiveHint is true' : 'no readOnlyHint/destructiveHint: the spec default is destructive';
}

/** Why a tool counts as open-world, in words (for reports). */
export function openWorldReason(annotations: ToolAnnotations | undefined): string {
  return annotations?.openWorldHint === true ? 'openWorldHint is true' : 'no openWorldHint: the spec default is open-world';
}

/** The scopes of `needed` not in `granted` (exact match, as the server's `authorize` stage checks them). */
export function missingScopes(needed: readonly string[], granted: readonly string[] | ReadonlySet<string>): string[] {
  const held = granted instanceof Set ? granted : new Set(granted as readonly string[]);
  return needed.filter((scope) => !held.has(scope));
}
