/**
 * What `toolwright diff` reports. A change is judged from the caller's side: on the input side a
 * schema that accepts less breaks callers; on the output side a schema that promises less (admits
 * more values) breaks consumers of `structuredContent`.
 */

/**
 * - `breaking`: some existing caller or consumer stops working;
 * - `compatible`: every existing caller and consumer keeps working;
 * - `model-facing`: text a model reads changed (title, description, examples): behaviour may
 *   change, so re-run the regression set (`toolwright eval --compare`);
 * - `unknown`: compatibility cannot be decided from the two definitions; the message says why.
 */
export type ChangeKind = 'breaking' | 'compatible' | 'model-facing' | 'unknown';

/** One classified change, as the JSON output carries it. */
export interface CatalogChange {
  /** Tool name. */
  tool: string;
  /** RFC 6901 pointer inside the tool descriptor ("" = the tool itself), in the new definition where it exists. */
  pointer: string;
  kind: ChangeKind;
  /** `kind === 'breaking'`. */
  breaking: boolean;
  /** One line: what changed and why it has this kind. */
  message: string;
}

/** The version bump a set of changes calls for (semver of the server or tool set). */
export type VersionBump = 'major' | 'minor' | 'patch' | 'none';

/** A per-tool suggestion, e.g. publish `<tool>_v2` instead of changing `<tool>` under its callers. */
export interface DiffSuggestion {
  tool: string;
  message: string;
}

/** The result of comparing two catalogs. */
export interface CatalogDiff {
  /** Sorted by tool name, then pointer. */
  changes: CatalogChange[];
  counts: Record<ChangeKind, number>;
  /** `major` when something breaks, else `minor` when something was added or widened, else `patch` for text, else `none`. */
  bump: VersionBump;
  /** Why this bump, in one line. */
  bumpReason: string;
  suggestions: DiffSuggestion[];
}
