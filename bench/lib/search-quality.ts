// The search surface on GitHub's REST catalog (issue 32 item 5): the labelled requests
// (bench/fixtures/search/github-requests.json, committed before the ranker was tuned), GitHub's
// description imported with toolsFromOpenApi from test-deps/openapi (installed on demand), and
// the figures: top-1/top-5 of the ranking, how often the label is in a real search_tools answer
// at the default budget, search latency, and tokens of the full tools/list against the search
// surface's list plus one search_tools answer. Shared by bench/search.bench.ts and the quality
// test (test/compose/search-quality.test.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '../../src/client/index.js';
import { toolsFromOpenApi } from '../../src/compose/openapi/index.js';
import { countTextTokens, estimateTokens } from '../../src/host/token-estimate.js';
import { createServer } from '../../src/index.js';
import type { Tool } from '../../src/index.js';
import type { RegisteredTool } from '../../src/server/tools/tool-registry.js';
import { resolveServerConfig } from '../../src/server/setup/server-config.js';
import { packWithinBudget } from '../../src/server/search/search-tools.js';
import { testDeps } from '../../test/support/test-deps.js';
import { REPO_ROOT } from '../../test/support/repo-paths.js';

export const REQUESTS_FILE = join(REPO_ROOT, 'bench', 'fixtures', 'search', 'github-requests.json');
const DESCRIPTION = 'node_modules/@octokit/openapi/generated/api.github.com.json';

/** One labelled request. */
export interface LabelledRequest {
  readonly request: string;
  readonly tool: string;
}

/** The labelled set and the sha256 of its file, as committed. */
export function loadRequests(): { requests: LabelledRequest[]; sha256: string } {
  const text = readFileSync(REQUESTS_FILE);
  const parsed = JSON.parse(text.toString('utf8')) as { requests: LabelledRequest[] };
  return { requests: parsed.requests, sha256: createHash('sha256').update(text).digest('hex') };
}

/** GitHub's catalog as tools (installs test-deps/openapi on first use). */
export async function loadGithubTools(): Promise<{ tools: Tool[]; importMs: number }> {
  const file = join(testDeps('openapi').dir, DESCRIPTION);
  if (!existsSync(file)) throw new Error(`${DESCRIPTION} is not in @octokit/openapi`);
  const started = performance.now();
  const imported = await toolsFromOpenApi(file);
  return { tools: imported.tools, importMs: performance.now() - started };
}

/** Ranking quality over the labelled set (the index the server built, every tool visible). */
export interface RankingFigures {
  readonly requests: number;
  readonly top1: number;
  readonly top5: number;
  /** Requests whose label is not in the first five, with what came first. */
  readonly misses: readonly { request: string; expected: string; got: readonly string[] }[];
}

/** Latency of one search (the ranking and the packing within the default budget), in ms. */
export interface LatencyFigures {
  readonly samples: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** The same samples in CPU time of this process (user + system): what a search costs without waiting for a core. */
  readonly cpuP50: number;
  readonly cpuP99: number;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** The server's own search surface, resolved as createServer resolves it. */
export function surfaceOf(tools: readonly Tool[]) {
  const config = resolveServerConfig({ name: 'github', version: '1.0.0', tools, search: true });
  return config.search!;
}

export function measureRanking(tools: readonly Tool[], requests: readonly LabelledRequest[]): RankingFigures {
  const surface = surfaceOf(tools);
  let top1 = 0;
  let top5 = 0;
  const misses: { request: string; expected: string; got: string[] }[] = [];
  for (const { request, tool } of requests) {
    const ranked = surface.index.search(request, () => true, 5).map((t) => t.name);
    if (ranked[0] === tool) top1++;
    if (ranked.includes(tool)) top5++;
    else misses.push({ request, expected: tool, got: ranked });
  }
  return { requests: requests.length, top1: top1 / requests.length, top5: top5 / requests.length, misses };
}

/** Times `rounds` passes over the requests: rank (default limit) and pack within the default budget. */
export function measureLatency(tools: readonly Tool[], requests: readonly LabelledRequest[], rounds: number): LatencyFigures {
  const surface = surfaceOf(tools);
  const { results, budgetTokens } = surface.options;
  const sizes = new Map<RegisteredTool, number>();
  const sizeOf = (tool: RegisteredTool): number => {
    let size = sizes.get(tool);
    if (size === undefined) sizes.set(tool, size = estimateTokens(tool.descriptor));
    return size;
  };
  // Sizes are counted once per tool by the server too (a WeakMap in search-tools.ts); warm them and the index.
  for (const { request } of requests) packWithinBudget(surface.index.search(request, () => true, results), budgetTokens, sizeOf);
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const { request } of requests) {
      const cpuStarted = process.cpuUsage();
      const started = performance.now();
      packWithinBudget(surface.index.search(request, () => true, results), budgetTokens, sizeOf);
      samples.push(performance.now() - started);
      const used = process.cpuUsage(cpuStarted);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  samples.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { samples: samples.length, p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), max: samples.at(-1)!, cpuP50: quantile(cpu, 0.5), cpuP99: quantile(cpu, 0.99) };
}

/** Tokens, and the label-in-answer rate, measured over real HTTP on loopback with the project's client. */
export interface SurfaceFigures {
  readonly catalogTools: number;
  /** Tokens of the `tools` of a full `tools/list` (every page). */
  readonly fullListTokens: number;
  /** Tokens of the `tools` of the search surface's `tools/list`. */
  readonly surfaceListTokens: number;
  /** Tokens of one typical search_tools answer's text (the median over the labelled requests), at the default budget. */
  readonly typicalAnswerTokens: number;
  readonly maxAnswerTokens: number;
  /** (surface list + typical answer) / full list. */
  readonly ratio: number;
  /** Share of requests whose label is among the definitions of the real answer at the default budget and limit. */
  readonly inAnswer: number;
  readonly meanToolsPerAnswer: number;
  /** Answers that were `searchBudgetTooSmall` errors at the default budget. */
  readonly errorAnswers: number;
}

export async function measureSurface(tools: readonly Tool[], requests: readonly LabelledRequest[]): Promise<SurfaceFigures> {
  const full = createServer({ name: 'github', version: '1.0.0', tools });
  const searched = createServer({ name: 'github', version: '1.0.0', tools, search: true });
  const fullListener = await full.listen({ port: 0, host: '127.0.0.1' });
  const searchListener = await searched.listen({ port: 0, host: '127.0.0.1' });
  const fullClient = connect(fullListener.url, { onWarning: () => {} });
  const searchClient = connect(searchListener.url, { onWarning: () => {} });
  try {
    const fullList = await fullClient.listTools();
    const surfaceList = await searchClient.listTools();
    const answerTokens: number[] = [];
    let inAnswer = 0;
    let returned = 0;
    let errors = 0;
    for (const { request, tool } of requests) {
      const result = await searchClient.callTool('search_tools', { query: request });
      const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      answerTokens.push(countTextTokens(text));
      if (result.isError === true) {
        errors++;
        continue;
      }
      const names = (JSON.parse(text) as { tools: { name: string }[] }).tools.map((t) => t.name);
      returned += names.length;
      if (names.includes(tool)) inAnswer++;
    }
    answerTokens.sort((a, b) => a - b);
    const fullListTokens = estimateTokens(fullList.raw);
    const surfaceListTokens = estimateTokens(surfaceList.raw);
    const typicalAnswerTokens = quantile(answerTokens, 0.5);
    return {
      catalogTools: fullList.tools.length,
      fullListTokens,
      surfaceListTokens,
      typicalAnswerTokens,
      maxAnswerTokens: answerTokens.at(-1)!,
      ratio: (surfaceListTokens + typicalAnswerTokens) / fullListTokens,
      inAnswer: inAnswer / requests.length,
      meanToolsPerAnswer: returned / requests.length,
      errorAnswers: errors,
    };
  } finally {
    await fullClient.close();
    await searchClient.close();
    await fullListener.close();
    await searchListener.close();
    await full.close();
    await searched.close();
  }
}
