// Targets and tables of the `auth` suite (issue 29): bearer-token tools/call against the bare
// reference, and tools/list with 100 per-caller views against one caller without visibleTo.
import type { TargetCheck } from './report.js';
import type { AuthSuiteResult, ViewsOutcome } from './suites/auth.js';
import type { HttpCell } from './suites/http-calls.js';
import type { ServerId } from './servers.js';
import { median, ratio } from './stats.js';

/** The issue's floor for tools/call with a valid bearer token (staticTokenAuthorizer), c=32, against bare. */
export const STATIC_TOKEN_FLOOR = 0.75;
/**
 * Floor for tools/list with 100 views against one caller without visibleTo. Defensible because 100
 * views fit VIEW_CACHE_LIMIT (256): each view's page is serialized once, so a request differs from
 * the one-view case only by its 99 predicates and a cache lookup, and its answer is no larger.
 * Half leaves room for a busy shared machine.
 */
export const VIEWS_FLOOR = 0.5;

const fmt = (value: number | undefined, digits = 0): string => (value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits));
const times = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');

/** Median over rounds of the per-round ratio (rounds are interleaved, so drift cancels). */
function paired(values: readonly number[], references: readonly number[]): number {
  if (values.length === 0 || values.length !== references.length) return Number.NaN;
  return median(values.map((value, i) => ratio(value, references[i]!)));
}

function cellOf(result: AuthSuiteResult, id: ServerId): HttpCell | undefined {
  const outcome = result.call.servers.find((s) => s.id === id);
  return outcome?.error === undefined ? outcome?.byConcurrency[String(result.call.concurrencies[0])] : undefined;
}

function errorOf(result: AuthSuiteResult, id: ServerId): string | undefined {
  return result.call.servers.find((s) => s.id === id)?.error;
}

/** The views row against the one-view row of the same run: ratio of medians and median of per-round ratios. */
export function viewsRatio(result: AuthSuiteResult): { ratio: number; paired: number; views?: ViewsOutcome; one?: ViewsOutcome } {
  const views = result.views.servers.find((s) => s.id === 'toolwright-views' && s.error === undefined);
  const one = result.views.servers.find((s) => s.id === 'toolwright-one-view' && s.error === undefined);
  if (views?.rps === undefined || one?.rps === undefined) return { ratio: Number.NaN, paired: Number.NaN, views, one };
  return { ratio: ratio(views.rps, one.rps), paired: paired(views.rounds.map((r) => r.rps), one.rounds.map((r) => r.rps)), views, one };
}

/**
 * The suite's target rows: tools/call with staticTokenAuthorizer ≥ 0.75× bare (the JWT figure and
 * the cost over Toolwright without authorize given alongside, without a target of their own), and
 * tools/list with 100 views ≥ {@link VIEWS_FLOOR}× one caller.
 */
export function authTargets(result: AuthSuiteResult | undefined): TargetCheck[] {
  return [staticTokenTarget(result), viewsTarget(result)];
}

function viewsTarget(result: AuthSuiteResult | undefined): TargetCheck {
  const target = `tools/list, 100 callers with 100 views (visibleTo), c=32: req/s ≥ ${VIEWS_FLOOR.toFixed(2)}× the same catalog without visibleTo, one caller`;
  if (result === undefined) return { target, measured: 'not run (suite not selected)', verdict: 'not measured' };
  const r = viewsRatio(result);
  if (r.views === undefined || r.one === undefined || !Number.isFinite(r.ratio)) {
    return { target, measured: result.views.servers.find((s) => s.error !== undefined)?.error ?? 'not measured', verdict: 'not measured' };
  }
  return {
    target,
    measured: `${times(r.ratio)} (${fmt(r.views.rps)} vs ${fmt(r.one.rps)} req/s; median of per-round ratios ${times(r.paired)}; p99 ${fmt(r.views.p99Ms, 2)} vs ${fmt(r.one.p99Ms, 2)} ms)`,
    verdict: r.ratio >= VIEWS_FLOOR ? 'met' : 'MISSED',
  };
}

function staticTokenTarget(result: AuthSuiteResult | undefined): TargetCheck {
  const target = `HTTP tools/call with a valid bearer token (staticTokenAuthorizer), c=32: req/s ≥ ${STATIC_TOKEN_FLOOR.toFixed(2)}× bare`;
  if (result === undefined) return { target, measured: 'not run (suite not selected)', verdict: 'not measured' };
  const bare = cellOf(result, 'bare');
  const plain = cellOf(result, 'toolwright');
  const stat = cellOf(result, 'toolwright-auth-static');
  const jwt = cellOf(result, 'toolwright-auth-jwt');
  if (bare === undefined || stat === undefined) {
    return { target, measured: errorOf(result, 'toolwright-auth-static') ?? errorOf(result, 'bare') ?? 'not measured', verdict: 'not measured' };
  }
  const value = ratio(stat.rps, bare.rps);
  const pairedValue = paired(stat.rounds.map((r) => r.rps), bare.rounds.map((r) => r.rps));
  const plainNote = plain === undefined ? '' : `; without authorize ${times(ratio(plain.rps, bare.rps))}, static ÷ none ${times(ratio(stat.rps, plain.rps))}`;
  const jwtNote = jwt === undefined ? `; jwtAuthorizer not measured${errorOf(result, 'toolwright-auth-jwt') === undefined ? '' : `: ${errorOf(result, 'toolwright-auth-jwt')}`}` : `; jwtAuthorizer (local JWKS, verified once then cached) ${times(ratio(jwt.rps, bare.rps))} (${fmt(jwt.rps)} req/s, no target)`;
  return {
    target,
    measured: `${times(value)} (${fmt(stat.rps)} vs ${fmt(bare.rps)} req/s; median of per-round ratios ${times(pairedValue)}; p99 ${fmt(stat.p99Ms, 2)} vs ${fmt(bare.p99Ms, 2)} ms)${plainNote}${jwtNote}`,
    verdict: value >= STATIC_TOKEN_FLOOR ? 'met' : 'MISSED',
  };
}

/** Markdown lines of the views row. */
export function viewsSection(result: AuthSuiteResult): string[] {
  const v = result.views;
  const out = [
    `## \`tools/list\` for ${v.callers} callers with different views`, '',
    `${v.catalogSize} tools; 99 carry \`visibleTo\` (\`visibleWhen\`: tenant, and an admin scope on every tenth), and \`authorize\` maps each of ${v.callers} bearer tokens to its own subject, tenant and scopes, so every caller has a view of its own (checked before timing: ${v.callers} distinct lists, each equal to the list the rule gives). Under load every connection (c=${v.concurrency}) rotates over the ${v.callers} tokens and each answer must equal its caller's verified list. Beside it: the same catalog without \`visibleTo\`, one caller (its token ${v.callers} times in the rotation). ${v.rounds} interleaved round(s) × ${v.durationSec} s. Target ≥ ${VIEWS_FLOOR.toFixed(2)}× one caller: 100 views fit the view cache (VIEW_CACHE_LIMIT 256), so each view is serialized once (see bench/README.md).`, '',
    '| server | distinct lists | tools per list | answer bytes | req/s (median) | p50 ms | p99 ms | server CPU µs/req | peak RSS MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of v.servers) {
    const label = s.id === 'toolwright-views' ? `Toolwright, ${v.callers} callers, ${v.callers} views` : 'Toolwright, 1 caller, no visibleTo';
    if (s.error !== undefined) { out.push(`| ${label} | not measured: ${s.error.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 240)} |`); continue; }
    out.push(`| ${label} | ${s.distinctViews ?? '—'} | ${s.toolsSeen === undefined ? '—' : s.toolsSeen.min === s.toolsSeen.max ? s.toolsSeen.min : `${s.toolsSeen.min}-${s.toolsSeen.max}`} | ${fmt(s.answerBytes)} | ${fmt(s.rps)} | ${fmt(s.p50Ms, 2)} | ${fmt(s.p99Ms, 2)} | ${fmt(s.cpuUsPerRequest)} | ${s.peakRssKb === undefined ? '—' : (s.peakRssKb / 1024).toFixed(1)} |`);
  }
  const r = viewsRatio(result);
  out.push('', `Views ÷ one caller: ${times(r.ratio)} req/s (median of per-round ratios ${times(r.paired)}); p99 ${r.views?.p99Ms === undefined || r.one?.p99Ms === undefined ? '—' : times(ratio(r.views.p99Ms, r.one.p99Ms))} of one caller's; CPU per request ${r.views?.cpuUsPerRequest === undefined || r.one?.cpuUsPerRequest === undefined ? '—' : times(ratio(r.views.cpuUsPerRequest, r.one.cpuUsPerRequest))} of one caller's.`, '');
  return out;
}
