/**
 * The tool catalog after a mounted catalog's tools changed (a proxied upstream's `list_changed`,
 * a mounted server that itself mounts one): the mounted tools are read again (`remountTools`), each
 * new one is checked and compiled as at start, and createServer swaps its list whole. Nothing here
 * throws: a tool that cannot join is left out and reported, and the server goes on serving.
 */
import type { VisibleTo } from './catalog-view.js';
import type { Middleware } from '../middleware/middleware.js';
import { remountTools } from './mount.js';
import type { MountRefusal, MountSource } from './mount.js';
import { registerTools, ServerDefinitionError } from '../tools/tool-registry.js';
import type { RegisteredTool } from '../tools/tool-registry.js';

/** What was settled at start and holds for every later tool. */
export interface RemountRules {
  /** This server's own tools, registered at start (they never change). */
  readonly own: readonly RegisteredTool[];
  readonly sources: readonly MountSource[];
  readonly canAuthorize: boolean;
  readonly use: readonly Middleware[] | undefined;
  /** Whether the tasks extension is on (a tool that runs as a task needs it declared at start). */
  readonly hasTasks: boolean;
  /**
   * The `visibleTo` predicates of the tools at start: per-caller tool lists are cached by a key made
   * of these, so a tool with another predicate would be shown from a cache keyed without it.
   */
  readonly visibility: ReadonlySet<VisibleTo>;
  /** The middleware opened when serving started; a tool bringing other middleware cannot join later. */
  readonly middleware: ReadonlySet<Middleware>;
  /** Where a refusal goes when its mount has no `onRefused`. */
  readonly report: (message: string, detail: Record<string, string>) => void;
}

/** Why a tool that is fine at start cannot join a running server, or undefined. */
function lateProblem(tool: RegisteredTool['tool'], rules: RemountRules): string | undefined {
  if (tool.task !== undefined && !rules.hasTasks) return 'it runs as a task, and this server did not declare the tasks extension at start';
  if (tool.visibleTo !== undefined && !rules.visibility.has(tool.visibleTo)) return 'it has a visibleTo that no tool had at start (per-caller tool lists are keyed on those)';
  const unopened = tool.use.find((m) => !rules.middleware.has(m));
  if (unopened !== undefined) return 'it brings its own middleware, which is opened only at start';
  return undefined;
}

/**
 * The registered tools after a change: this server's own, then every mount's current tools in
 * mount order. A tool already registered (the same tool object under the same name) keeps its
 * compiled validators.
 */
export function remountRegistered(rules: RemountRules, current: readonly RegisteredTool[]): RegisteredTool[] {
  const refuse = (source: MountSource, refusal: MountRefusal): void => {
    if (source.onRefused !== undefined) {
      try {
        source.onRefused(refusal);
        return;
      } catch {
        // A throwing listener must not stop the others: fall back to the log.
      }
    }
    rules.report('mounted tool left out after a list change', { mount: source.owner, tool: refusal.tool, reason: refusal.reason });
  };
  const known = new Map(current.map((r) => [r.tool, r]));
  const registered: RegisteredTool[] = [...rules.own];
  for (const { source, tool } of remountTools(rules.sources, rules.own.map((r) => r.name), refuse)) {
    const before = known.get(tool);
    if (before !== undefined && before.name === tool.name) {
      registered.push(before);
      continue;
    }
    const late = lateProblem(tool, rules);
    if (late !== undefined) {
      refuse(source, { tool: tool.name, reason: late });
      continue;
    }
    try {
      registered.push(...registerTools([tool], { canAuthorize: rules.canAuthorize, use: rules.use }));
    } catch (error) {
      const reason = error instanceof ServerDefinitionError ? error.problems.map((p) => `${p.field}: ${p.message}`).join('; ') : String(error);
      refuse(source, { tool: tool.name, reason });
    }
  }
  return registered;
}
