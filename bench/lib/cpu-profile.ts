// Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and ranks functions and files by self time,
// the numbers needed to say precisely where a server spends its CPU under load.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface HotSpot {
  /** `file:function:line` (file relative to the repository, `node:` for Node internals). */
  readonly where: string;
  /** Self time (or inclusive time, in `projectInclusive`), ms. */
  readonly ms: number;
  /** That time as a share of all sampled time, idle excluded. */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly busyMs: number;
  readonly idleMs: number;
  readonly functions: HotSpot[];
  readonly files: HotSpot[];
  /** Functions of the project's own code (dist/, src/) by inclusive time (self + callees). */
  readonly projectInclusive: HotSpot[];
}

/** A file relative to the first root that holds it (absolute when none does). */
function fileOf(url: string, roots: readonly string[]): string {
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return url;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  for (const root of roots) {
    const rel = relative(root, path);
    if (!rel.startsWith('..')) return rel;
  }
  return path;
}

/**
 * `root`: where paths are read from (`dist/...`, `src/...`, `node_modules/...`); several when the
 * profiled build lives apart from the checkout (the lint bench's temporary build), first match wins.
 */
export function summariseProfile(path: string, root: string | readonly string[], top = 25): ProfileSummary {
  const roots = typeof root === 'string' ? [root] : root;
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) byId.set(node.id, node);
  const selfByFunction = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  let idleUs = 0;
  let busyUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]!);
    const delta = profile.timeDeltas[i] ?? 0;
    if (node === undefined) continue;
    const frame = node.callFrame;
    if (frame.functionName === '(idle)') { idleUs += delta; continue; }
    busyUs += delta;
    const file = fileOf(frame.url, roots);
    const where = `${file}:${frame.functionName === '' ? '(anonymous)' : frame.functionName}:${frame.lineNumber + 1}`;
    selfByFunction.set(where, (selfByFunction.get(where) ?? 0) + delta);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + delta);
  }
  // Inclusive time: each node's self time plus its subtree, counted once per stack even when a
  // function recurses, so that a pipeline stage's share includes everything it calls.
  const selfByNode = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const inclusiveByFunction = new Map<string, number>();
  const subtree = new Map<number, number>();
  const total = (id: number): number => {
    const cached = subtree.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id);
    let sum = selfByNode.get(id) ?? 0;
    for (const child of node?.children ?? []) sum += total(child);
    subtree.set(id, sum);
    return sum;
  };
  const visit = (id: number, onStack: ReadonlySet<string>): void => {
    const node = byId.get(id);
    if (node === undefined) return;
    const file = fileOf(node.callFrame.url, roots);
    const where = `${file}:${node.callFrame.functionName === '' ? '(anonymous)' : node.callFrame.functionName}:${node.callFrame.lineNumber + 1}`;
    let stack = onStack;
    if ((file.startsWith('dist/') || file.startsWith('src/')) && !onStack.has(where)) {
      inclusiveByFunction.set(where, (inclusiveByFunction.get(where) ?? 0) + total(id));
      stack = new Set(onStack).add(where);
    }
    for (const child of node.children ?? []) visit(child, stack);
  };
  if (profile.nodes[0] !== undefined) visit(profile.nodes[0].id, new Set());

  const rank = (map: Map<string, number>): HotSpot[] =>
    [...map.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, top)
      .map(([where, us]) => ({ where, ms: us / 1000, percent: busyUs > 0 ? (100 * us) / busyUs : 0 }));
  return { busyMs: busyUs / 1000, idleMs: idleUs / 1000, functions: rank(selfByFunction), files: rank(selfByFile), projectInclusive: rank(inclusiveByFunction) };
}

export function profileMarkdown(title: string, summary: ProfileSummary): string {
  const lines = [`## ${title}`, '', `Busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms (percentages are of busy time).`, '', '| self % | self ms | function (file:function:line) |', '|---:|---:|---|'];
  for (const spot of summary.functions) lines.push(`| ${spot.percent.toFixed(1)} | ${spot.ms.toFixed(0)} | \`${spot.where}\` |`);
  lines.push('', '| self % | self ms | file |', '|---:|---:|---|');
  for (const spot of summary.files) lines.push(`| ${spot.percent.toFixed(1)} | ${spot.ms.toFixed(0)} | \`${spot.where}\` |`);
  lines.push('', 'Project code by inclusive time (self + everything it calls):', '', '| incl. % | incl. ms | function |', '|---:|---:|---|');
  for (const spot of summary.projectInclusive) lines.push(`| ${spot.percent.toFixed(1)} | ${spot.ms.toFixed(0)} | \`${spot.where}\` |`);
  return lines.join('\n') + '\n';
}
