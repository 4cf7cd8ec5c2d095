// The search surface on GitHub's REST catalog (issue 32 item 5), `npm run bench:search` (and the
// `search` suite of `npm run bench`). GitHub's description (@octokit/openapi, test-deps/openapi,
// installed on demand) is imported with toolsFromOpenApi; the labelled requests are
// bench/fixtures/search/github-requests.json, whose sha256 is printed. Measured:
//   1. ranking: top-1 and top-5 hit rates of the server's index over the labelled requests;
//   2. latency of one search (rank + pack within the default budget), in process, p50/p99/max over
//      `--rounds` passes (default 20) of every request, after one warm pass;
//   3. over real HTTP on 127.0.0.1 with toolwright/client: tokens of a full tools/list (every page)
//      against the search surface's tools/list plus one typical search_tools answer (the median
//      answer over the labelled requests at the default budget), and how often the labelled tool is
//      among the definitions of that real answer.
// Tokens: o200k_base via the project's one counter (src/host/token-estimate.ts). Results go to
// bench/results/search.md (`--no-write` to skip); `--json` prints the figures as JSON last.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadGithubTools, loadRequests, measureLatency, measureRanking, measureSurface } from './lib/search-quality.js';
import { REPO_ROOT } from '../test/support/repo-paths.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const write = !args.includes('--no-write');
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt === -1 ? 20 : Number(args[roundsAt + 1]);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds needs a positive integer, got ${args[roundsAt + 1]}`);

const loadBefore = loadavg()[0]!;
const { requests, sha256 } = loadRequests();
const { tools, importMs } = await loadGithubTools();
const heapMiB = process.memoryUsage().heapUsed / 1048576;
const ranking = measureRanking(tools, requests);
const latency = measureLatency(tools, requests, rounds);
const surface = await measureSurface(tools, requests);
const loadAfter = loadavg()[0]!;

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
const lines = [
  '# Search surface on GitHub\'s REST catalog (`npm run bench:search`)',
  '',
  `Labelled set: bench/fixtures/search/github-requests.json, ${requests.length} requests, sha256 ${sha256}.`,
  `Catalog: ${tools.length} tools imported in ${(importMs / 1000).toFixed(1)} s (heap ${heapMiB.toFixed(0)} MiB after import). Load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}.`,
  '',
  '| figure | value |',
  '|---|---|',
  `| top-1 (ranking) | ${pct(ranking.top1)} |`,
  `| top-5 (ranking) | ${pct(ranking.top5)} |`,
  `| label among the definitions of the real answer (default limit 5, default budget) | ${pct(surface.inAnswer)} (mean ${surface.meanToolsPerAnswer.toFixed(1)} definitions per answer; ${surface.errorAnswers} budget errors) |`,
  `| search latency (rank + pack), ${latency.samples} samples | wall p50 ${latency.p50.toFixed(3)} ms, p99 ${latency.p99.toFixed(3)} ms, max ${latency.max.toFixed(3)} ms; CPU p50 ${latency.cpuP50.toFixed(3)} ms, p99 ${latency.cpuP99.toFixed(3)} ms |`,
  `| full tools/list | ${surface.fullListTokens} tokens (${surface.catalogTools} tools) |`,
  `| search surface tools/list + one typical search_tools answer | ${surface.surfaceListTokens} + ${surface.typicalAnswerTokens} tokens (largest answer ${surface.maxAnswerTokens}) = ${pct(surface.ratio)} of the full list |`,
  '',
  `Requests whose label is not in the first five (${ranking.misses.length}):`,
  '',
  ...ranking.misses.map((miss) => `- "${miss.request}" → ${miss.expected}; got ${miss.got.join(', ')}`),
  '',
];
const text = lines.join('\n');
process.stdout.write(`${text}\n`);
if (write) writeFileSync(join(REPO_ROOT, 'bench', 'results', 'search.md'), text);
if (json) {
  process.stdout.write(`${JSON.stringify({
    sha256, requests: requests.length, tools: tools.length, importMs, heapMiB, loadBefore, loadAfter,
    top1: ranking.top1, top5: ranking.top5, latency, surface,
  })}\n`);
}
