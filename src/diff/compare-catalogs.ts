import { isJsonObject } from '../json/json-object.js';
import { canonicalJson } from '../json/canonical-json.js';
import { compareSchemas } from './compare-schema.js';
import type { CatalogChange, CatalogDiff, ChangeKind, DiffSuggestion, VersionBump } from './types.js';
import { namesAlike } from '../text/similar-names.js';

type Tool = Record<string, unknown>;

/** Annotations whose change alters what a host does with the tool (approval, retries), not validity. */
const ANNOTATION_EFFECTS: Record<string, string> = {
  readOnlyHint: 'hosts auto-approve read-only tools',
  destructiveHint: 'hosts ask before destructive tools',
  idempotentHint: 'hosts retry idempotent tools',
  openWorldHint: 'hosts treat open-world tools as untrusted sources',
};

function byName(tools: readonly unknown[]): Map<string, Tool> {
  const map = new Map<string, Tool>();
  for (const tool of tools) if (isJsonObject(tool) && typeof tool.name === 'string' && !map.has(tool.name)) map.set(tool.name, tool);
  return map;
}

function nextVersionName(name: string): string {
  const match = /^(.*?)([_.-]v)(\d+)$/i.exec(name);
  return match ? `${match[1]}${match[2]}${Number(match[3]) + 1}` : `${name}_v2`;
}

function compareTool(tool: string, before: Tool, after: Tool): CatalogChange[] {
  const changes: Array<Omit<CatalogChange, 'breaking' | 'tool'>> = [];
  for (const key of ['title', 'description'] as const) {
    if (before[key] === after[key]) continue;
    const what = before[key] === undefined ? 'added' : after[key] === undefined ? 'removed' : 'changed';
    changes.push({ pointer: `/${key}`, kind: 'model-facing', message: `${key} ${what}: the model decides when and how to call from this text, so behaviour may change; re-run the regression set (toolwright eval --compare)` });
  }
  changes.push(...compareSchemas(before.inputSchema, after.inputSchema, 'input', '/inputSchema'));
  if (before.outputSchema !== undefined && after.outputSchema === undefined) {
    changes.push({ pointer: '/outputSchema', kind: 'breaking', message: 'outputSchema removed: consumers that validate or read structuredContent lose the contract they were built on' });
  } else if (before.outputSchema === undefined && after.outputSchema !== undefined) {
    changes.push({ pointer: '/outputSchema', kind: 'compatible', message: 'outputSchema added: results now promise a structure (older consumers read the text content as before)' });
  } else if (before.outputSchema !== undefined) {
    changes.push(...compareSchemas(before.outputSchema, after.outputSchema, 'output', '/outputSchema'));
  }
  const oldNotes = isJsonObject(before.annotations) ? before.annotations : {};
  const newNotes = isJsonObject(after.annotations) ? after.annotations : {};
  for (const key of new Set([...Object.keys(oldNotes), ...Object.keys(newNotes)])) {
    if (canonicalJson(oldNotes[key]) === canonicalJson(newNotes[key])) continue;
    const why = ANNOTATION_EFFECTS[key];
    changes.push({
      pointer: `/annotations/${key}`,
      kind: key === 'title' ? 'model-facing' : 'unknown',
      message: key === 'title'
        ? 'annotations.title changed: the name hosts show for the tool'
        : `annotations.${key} changed from ${JSON.stringify(oldNotes[key]) ?? '(unset)'} to ${JSON.stringify(newNotes[key]) ?? '(unset)'}: ${why ?? 'hosts may act on annotations'}, so what callers see can change without any schema change; review`,
    });
  }
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'].includes(key)) continue;
    if (canonicalJson(before[key]) === canonicalJson(after[key])) continue;
    changes.push({ pointer: `/${key}`, kind: 'unknown', message: `"${key}" changed: toolwright does not judge its effect on callers; review` });
  }
  return changes.map((c) => ({ tool, ...c, breaking: c.kind === 'breaking' }));
}

function bumpFor(counts: Record<ChangeKind, number>): { bump: VersionBump; reason: string } {
  if (counts.breaking > 0) return { bump: 'major', reason: `${counts.breaking} breaking change${counts.breaking > 1 ? 's' : ''}` };
  if (counts.unknown > 0) return { bump: 'major', reason: `${counts.unknown} change${counts.unknown > 1 ? 's' : ''} whose compatibility cannot be decided: treat as breaking until reviewed` };
  if (counts.compatible > 0) return { bump: 'minor', reason: 'only compatible changes (additions and widenings)' };
  if (counts['model-facing'] > 0) return { bump: 'patch', reason: 'only model-facing text changed; re-run the regression set' };
  return { bump: 'none', reason: 'no changes' };
}

/**
 * Compares two `tools/list` catalogs and classifies every change per tool and JSON pointer as
 * breaking, compatible, model-facing or unknown (see {@link ChangeKind}), with the version bump
 * it calls for and, per tool that breaks, the guide's advice: publish `<tool>_v2` beside the old
 * definition rather than changing it under its callers. `toolwright diff` prints it: when
 * `counts.breaking` is above zero, `bump` is `major` and `suggestions` say what to publish instead.
 */
export function diffCatalogs(before: readonly unknown[], after: readonly unknown[]): CatalogDiff {
  const oldTools = byName(before);
  const newTools = byName(after);
  const changes: CatalogChange[] = [];
  const suggestions: DiffSuggestion[] = [];
  const schemaKey = (tool: Tool) => canonicalJson({ inputSchema: tool.inputSchema ?? null, outputSchema: tool.outputSchema ?? null });
  const added = [...newTools.keys()].filter((n) => !oldTools.has(n));
  for (const [name, tool] of oldTools) {
    const next = newTools.get(name);
    if (next === undefined) {
      // Same schemas alone is weak evidence (many tools take {}): a rename needs alike names too.
      const twin = added.find((n) => namesAlike(name, n) && schemaKey(newTools.get(n)!) === schemaKey(tool));
      changes.push({ tool: name, pointer: '', kind: 'breaking', breaking: true, message: `tool removed${twin !== undefined ? ` (a tool "${twin}" with the same schemas was added: renamed?)` : ''}: callers that call "${name}" now get an unknown-tool error` });
      suggestions.push({ tool: name, message: `if callers exist, keep "${name}" (deprecated in its description) until they have moved${twin !== undefined ? ` to "${twin}"` : ''}` });
      continue;
    }
    changes.push(...compareTool(name, tool, next));
  }
  for (const name of added) {
    changes.push({ tool: name, pointer: '', kind: 'compatible', breaking: false, message: 'tool added: existing callers are unaffected (a model now has one more tool to choose from; re-run the regression set)' });
  }
  changes.sort((a, b) => (a.tool !== b.tool ? (a.tool < b.tool ? -1 : 1) : a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
  const counts: Record<ChangeKind, number> = { breaking: 0, compatible: 0, 'model-facing': 0, unknown: 0 };
  for (const change of changes) counts[change.kind]++;
  const breakingTools = new Set(changes.filter((c) => c.breaking && c.pointer !== '').map((c) => c.tool));
  for (const tool of breakingTools) {
    const v2 = nextVersionName(tool);
    suggestions.push({ tool, message: `if callers exist, leave "${tool}" as it was and publish the new definition as "${v2}"${newTools.has(v2) ? ` (a tool "${v2}" already exists: pick another name)` : ''}; retire "${tool}" once callers have moved` });
  }
  suggestions.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  const { bump, reason } = bumpFor(counts);
  return { changes, counts, bump, bumpReason: reason, suggestions };
}
