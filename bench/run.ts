// `npm run bench`: builds, then measures Toolwright, the official SDK v2 and the bare node:http /
// stdio references side by side, and writes bench/results/latest.{md,json}.
//
//   npm run bench                            full run (several minutes)
//   npm run bench -- --quick                 smoke run, under a minute (writes bench/results/quick.*)
//   npm run bench -- --only http,catalog,list,stdio,legacy,first,cold,schema,middleware,auth,hostile,soak,scaleout,lint,search,proxy
//   npm run bench -- --profile toolwright    CPU profile of one server under HTTP load (c=32); also
//                                            toolwright-middleware, toolwright-empty-chain
//   npm run bench -- --no-build              reuse dist/ and .cache/bench as they are
//   npm run bench -- --rounds 5 --duration 3
//   npm run bench -- --only http --out focus   write bench/results/focus.{md,json} instead of latest
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { profileMarkdown, summariseProfile } from './lib/cpu-profile.js';
import { runBounded } from './lib/processes.js';
import { checkTargets, renderMarkdown, type BenchReport } from './lib/report.js';
import { COMPILED_DIR, EMPTY_CHAIN_SERVER, MIDDLEWARE_SERVER, REPO_ROOT, SERVERS, toolwrightMissing, type ServerId } from './lib/servers.js';
import { runColdStart } from './lib/suites/cold-start.js';
import { runHttpSuite } from './lib/suites/http-calls.js';
import { runLintBench, runMiddlewareCostBench, runProxyBench, runSchemaBench, runSearchBench } from './lib/suites/schema-bench.js';
import { runStdioSuite } from './lib/suites/stdio-roundtrips.js';
import { runLegacySuite } from './lib/suites/legacy-sessions.js';
import { runFirstCallsSuite } from './lib/suites/first-calls.js';
import { runHostileSuite } from './lib/suites/hostile.js';
import { runScaleoutSuite } from './lib/suites/scaleout.js';
import { runAuthSuite } from './lib/suites/auth.js';

const SUITES = ['http', 'catalog', 'list', 'stdio', 'legacy', 'first', 'cold', 'schema', 'middleware', 'auth', 'hostile', 'soak', 'scaleout', 'lint', 'search', 'proxy'] as const;
type Suite = (typeof SUITES)[number];

interface Options {
  quick: boolean;
  build: boolean;
  only: Set<Suite>;
  profile: ServerId | null;
  rounds: number | null;
  duration: number | null;
  /** Results file name (without extension) under bench/results; default latest (quick: quick). */
  out: string | null;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { quick: false, build: true, only: new Set(SUITES), profile: null, rounds: null, duration: null, out: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag === '--quick') options.quick = true;
    else if (flag === '--no-build') options.build = false;
    else if (flag === '--only' && value !== undefined) {
      const names = value.split(',').map((name) => name.trim());
      const unknown = names.filter((name) => !(SUITES as readonly string[]).includes(name));
      if (unknown.length > 0) throw new Error(`--only: unknown suite(s) ${unknown.join(', ')}; known: ${SUITES.join(', ')}`);
      options.only = new Set(names as Suite[]);
      i++;
    } else if (flag === '--profile' && value !== undefined) {
      if (!PROFILABLE.some((server) => server.id === value)) throw new Error(`--profile: unknown server ${value}; known: ${PROFILABLE.map((s) => s.id).join(', ')}`);
      options.profile = value as ServerId;
      i++;
    } else if ((flag === '--rounds' || flag === '--duration') && value !== undefined) {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 1) throw new Error(`${flag} needs a positive integer, got ${value}`);
      if (flag === '--rounds') options.rounds = number; else options.duration = number;
      i++;
    } else if (flag === '--out' && value !== undefined) {
      if (!/^[A-Za-z0-9._-]+$/.test(value)) throw new Error(`--out takes a plain file name (letters, digits, . _ -), got ${value}`);
      options.out = value;
      i++;
    } else throw new Error(`unknown or incomplete option ${flag} (see the header of bench/run.ts)`);
  }
  return options;
}

const log = (line: string): void => { process.stdout.write(line + '\n'); };

async function build(options: Options): Promise<string> {
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  let status = 'skipped (--no-build)';
  if (options.build) {
    log('building: tsc -p tsconfig.build.json, the console pages, the bundles (npm run build) …');
    // Not incremental: the bundling step turns tsc's entry files into stubs, so every build must
    // write them afresh (scripts/bundle-node.mjs refuses stubs as input).
    const main = await runBounded(process.execPath, [tsc, '-p', 'tsconfig.build.json'], 300000, { cwd: REPO_ROOT });
    // tsc still emits JavaScript when others' files have type errors; report it, measure what was built.
    status = main.code === 0 ? 'npm run build ok' : `npm run build exited ${main.code} (type errors; JavaScript still emitted)`;
    if (main.code !== 0) log(`  ${status}:\n${main.stdout.split('\n').slice(0, 10).join('\n')}`);
    for (const script of ['build-console.mjs', 'bundle-node.mjs']) {
      const step = await runBounded(process.execPath, [join(REPO_ROOT, 'scripts', script)], 300000, { cwd: REPO_ROOT });
      if (step.code !== 0) throw new Error(`scripts/${script} failed (${step.code}):\n${step.stdout}${step.stderr}`);
    }
    log('building: tsc -p bench/tsconfig.json …');
    const bench = await runBounded(process.execPath, [tsc, '-p', join('bench', 'tsconfig.json'), '--incremental', '--tsBuildInfoFile', join(COMPILED_DIR, 'bench.tsbuildinfo')], 300000, { cwd: REPO_ROOT });
    if (bench.code !== 0) throw new Error(`bench programs do not compile:\n${bench.stdout}${bench.stderr}`);
  }
  return status;
}

async function gitCommit(): Promise<string> {
  const outcome = await runBounded('git', ['rev-parse', '--short', 'HEAD'], 10000, { cwd: REPO_ROOT });
  return outcome.code === 0 ? outcome.stdout.trim() : 'unknown';
}

/** Servers `--profile` can run: the main three and the middleware suite's variants. */
const PROFILABLE = [...SERVERS, MIDDLEWARE_SERVER, EMPTY_CHAIN_SERVER];

async function profile(id: ServerId, options: Options): Promise<void> {
  const server = PROFILABLE.find((s) => s.id === id)!;
  const dir = join(COMPILED_DIR, 'profiles', `${id}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const durationSec = options.duration ?? 8;
  log(`profiling ${id}: HTTP tools/call at c=32 for ${durationSec} s under node --cpu-prof …`);
  const result = await runHttpSuite([server], {
    name: `profile ${id}`, workload: 'tools/call', catalogSize: 1, concurrencies: [32], rounds: 1, durationSec, warmupSec: 2, log,
    nodeFlags: ['--cpu-prof', '--cpu-prof-dir', dir],
  });
  const outcome = result.servers[0]!;
  if (outcome.error !== undefined) throw new Error(`profiling ${id} failed: ${outcome.error}`);
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).map((name) => join(dir, name));
  const newest = files.sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs)[0];
  if (newest === undefined) throw new Error(`no .cpuprofile written in ${dir}`);
  const cell = outcome.byConcurrency['32']!;
  const markdown = `# CPU profile: ${id} HTTP tools/call, c=32\n\n${cell.rps.toFixed(0)} req/s while profiled (profiling slows the server), p99 ${cell.p99Ms.toFixed(2)} ms. Profile: \`${relative(REPO_ROOT, newest)}\`.\n\n` +
    profileMarkdown('Self time', summariseProfile(newest, REPO_ROOT));
  const target = join(REPO_ROOT, 'bench', 'results', `profile-${id}.md`);
  writeFileSync(target, markdown);
  log(markdown);
  log(`written: ${target}`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const loadAverageBefore = loadavg();
  const buildStatus = await build(options);
  const missing = toolwrightMissing();
  if (missing !== null) log(`Toolwright cannot be measured: ${missing}`);
  mkdirSync(join(REPO_ROOT, 'bench', 'results'), { recursive: true });

  if (options.profile !== null) { await profile(options.profile, options); return; }

  const quick = options.quick;
  const rounds = options.rounds ?? (quick ? 1 : 4);
  const durationSec = options.duration ?? (quick ? 1 : 3);
  const settings = {
    rounds, durationSec, warmupSec: quick ? 0.5 : 2, concurrencies: [1, 32, 64], catalogConcurrencies: quick ? [32] : [1, 32, 64],
    listTools: 1000, stdioCalls: quick ? 2000 : 20000, stdioBlockCalls: quick ? 200 : 1000, stdioWarmupCalls: quick ? 200 : 2000, coldStartRepetitions: quick ? 3 : 10,
  };
  const servers = SERVERS;
  const report: Omit<BenchReport, 'targets'> & { -readonly [K in keyof BenchReport]?: BenchReport[K] } = {
    run: { startedAt, finishedAt: '', mode: quick ? 'quick' : 'full', node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, loadAverageBefore, loadAverageAfter: [], gitCommit: await gitCommit(), build: buildStatus, settings },
  };

  if (options.only.has('http')) {
    log('HTTP tools/call, 1 tool:');
    report.httpCall = await runHttpSuite(servers, { name: 'http', workload: 'tools/call', catalogSize: 1, concurrencies: settings.concurrencies, rounds, durationSec, warmupSec: settings.warmupSec, log });
  }
  if (options.only.has('middleware')) {
    log('HTTP tools/call with the middleware chain:');
    const chain = [...SERVERS.filter((s) => s.id !== 'sdk'), EMPTY_CHAIN_SERVER, MIDDLEWARE_SERVER];
    report.middleware = await runHttpSuite(chain, { name: 'middleware', workload: 'tools/call', catalogSize: 1, concurrencies: [32], rounds, durationSec, warmupSec: settings.warmupSec, log });
    log("each middleware's cost per call, in process (npm run bench:middleware):");
    report.middlewareCost = await runMiddlewareCostBench(300000, quick);
    log(`  ${report.middlewareCost.note}\n${report.middlewareCost.output}`);
  }
  if (options.only.has('auth')) {
    log('auth: HTTP tools/call with a bearer token (static, JWT), then tools/list for 100 callers with 100 views:');
    report.auth = await runAuthSuite({ rounds, durationSec, warmupSec: settings.warmupSec, concurrency: 32, log });
  }
  if (options.only.has('catalog')) {
    log('HTTP tools/call, 50-tool catalog:');
    report.httpCatalog = await runHttpSuite(servers, { name: 'catalog', workload: 'tools/call', catalogSize: 50, concurrencies: settings.catalogConcurrencies, rounds, durationSec, warmupSec: settings.warmupSec, log });
  }
  if (options.only.has('list')) {
    log('HTTP tools/list, 1,000 tools:');
    report.toolsList = await runHttpSuite(servers, { name: 'list', workload: 'tools/list', catalogSize: settings.listTools, concurrencies: [1], rounds: Math.min(rounds, 3), durationSec: Math.min(durationSec, 2), warmupSec: settings.warmupSec, log, listWalks: quick ? 5 : 30 });
  }
  if (options.only.has('stdio')) {
    log(`stdio, ${settings.stdioCalls} sequential calls per server per round, servers taking turns every ${settings.stdioBlockCalls}:`);
    report.stdio = await runStdioSuite(servers, { calls: settings.stdioCalls, blockCalls: settings.stdioBlockCalls, warmupCalls: settings.stdioWarmupCalls, rounds: quick ? 1 : 3, log });
  }
  if (options.only.has('legacy')) {
    const sessions = quick ? 2 : 8;
    log(`legacy 2025 clients: initialize + 1,000 tools/call per session; HTTP ${sessions} sessions side by side, stdio one session per process:`);
    report.legacy = await runLegacySuite(servers, { sessions, callsPerSession: 1000, rounds: quick ? 1 : 5, log });
  }
  if (options.only.has('first')) {
    log('first 1,000 calls of a fresh process (after one server/discover), stdio and HTTP:');
    report.firstCalls = await runFirstCallsSuite(servers, { calls: 1000, rounds: quick ? 1 : 7, log });
  }
  if (options.only.has('cold')) {
    log('cold start:');
    report.coldStart = await runColdStart(servers, { repetitions: settings.coldStartRepetitions, log });
  }
  if (options.only.has('hostile')) {
    log('hostile input: stop_arm latency with a hostile call in flight (robot arm, HTTP):');
    report.hostile = await runHostileSuite('stop', { quick, log });
  }
  if (options.only.has('soak')) {
    log(`soak: hostile calls back to back for ${quick ? 10 : 60} s, RSS sampled each second:`);
    report.soak = await runHostileSuite('soak', { quick, log });
  }
  if (options.only.has('scaleout')) {
    log('scale-out: redis-server + toolwright serve --store instances + nginx (docs/scale-out.md):');
    report.scaleout = await runScaleoutSuite({ quick, durationSec, log });
  }
  if (options.only.has('schema')) {
    log('schema engine vs Ajv (npm run bench:schema), interleaved rounds, then CPU profiles:');
    report.schema = await runSchemaBench(600000, quick);
    log(`  ${report.schema.note}\n${report.schema.output}`);
  }
  if (options.only.has('lint') && !quick) {
    log('lint of 1,000 tools (npm run bench:lint):');
    report.lint = await runLintBench(600000);
    log(`  ${report.lint.note}\n${report.lint.output}`);
  }

  if (options.only.has('search')) {
    log('search surface on GitHub\'s catalog (npm run bench:search): quality, latency, tokens:');
    report.search = await runSearchBench(900000, quick);
    log(`  ${report.search.note}\n${report.search.output}`);
  }

  if (options.only.has('proxy')) {
    log('proxy overhead: toolwright proxy (HTTP) in front of toolwright serve (HTTP) vs direct, c=32 (npm run bench:proxy):');
    report.proxy = await runProxyBench(300000, quick);
    log(`  ${report.proxy.note}${report.proxy.figures !== undefined ? ` ${JSON.stringify(report.proxy.figures)}` : `\n${report.proxy.output}`}`);
  }

  const finished = { ...report, run: { ...report.run, finishedAt: new Date().toISOString(), loadAverageAfter: loadavg() } };
  const full: BenchReport = { ...finished, targets: checkTargets(finished) };
  const markdown = renderMarkdown(full);
  const base = join(REPO_ROOT, 'bench', 'results', options.out ?? (quick ? 'quick' : 'latest'));
  writeFileSync(`${base}.json`, JSON.stringify(full, null, 2) + '\n');
  writeFileSync(`${base}.md`, markdown);
  log('\n' + markdown);
  log(`written: ${base}.md and ${base}.json`);
  rmSync(join(COMPILED_DIR, 'profiles'), { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error: unknown) => { process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`); process.exit(1); },
);
