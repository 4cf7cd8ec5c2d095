// Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and ranks functions and files by self time,
// the numbers needed to say precisely where a server spends its CPU under load.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface HotSpot {
  /** `file:function:line` (file relative to the repository, `node:` for Node internals). */
  readonly where: string;
  readonly selfMs: number;
  /** Share of all sampled time, idle excluded. */
  readonly selfPercent: number;
}

export interface ProfileSummary {
  readonly busyMs: number;
  readonly idleMs: number;
  readonly functions: HotSpot[];
  readonly files: HotSpot[];
}

function fileOf(url: string, root: string): string {
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return url;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const rel = relative(root, path);
  return rel.startsWith('..') ? path : rel;
}

export function summariseProfile(path: string, root: string, top = 25): ProfileSummary {
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
    const file = fileOf(frame.url, root);
    const where = `${file}:${frame.functionName === '' ? '(anonymous)' : frame.functionName}:${frame.lineNumber + 1}`;
    selfByFunction.set(where, (selfByFunction.get(where) ?? 0) + delta);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + delta);
  }
  const rank = (map: Map<string, number>): HotSpot[] =>
    [...map.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, top)
      .map(([where, us]) => ({ where, selfMs: us / 1000, selfPercent: busyUs > 0 ? (100 * us) / busyUs : 0 }));
  return { busyMs: busyUs / 1000, idleMs: idleUs / 1000, functions: rank(selfByFunction), files: rank(selfByFile) };
}

export function profileMarkdown(title: string, summary: ProfileSummary): string {
  const lines = [`## ${title}`, '', `Busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms (percentages are of busy time).`, '', '| self % | self ms | function (file:function:line) |', '|---:|---:|---|'];
  for (const spot of summary.functions) lines.push(`| ${spot.selfPercent.toFixed(1)} | ${spot.selfMs.toFixed(0)} | \`${spot.where}\` |`);
  lines.push('', '| self % | self ms | file |', '|---:|---:|---|');
  for (const spot of summary.files) lines.push(`| ${spot.selfPercent.toFixed(1)} | ${spot.selfMs.toFixed(0)} | \`${spot.where}\` |`);
  return lines.join('\n') + '\n';
}
