// The schema and lint rows of the target table: verdicts follow the figures (no timing here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintTargets, schemaTargets } from '../lib/component-targets.js';
import { checkTargets, renderMarkdown } from '../lib/report.js';
import type { RunInfo } from '../lib/report.js';

const schemaFigures = (ratios: number[], loadAfter = 1.1) => ({
  ran: true, note: 'completed', exitCode: 0, output: 'table',
  figures: { rows: ratios.map((ratio, i) => ({ case: `case ${i}`, ratio, lowestRoundRatio: ratio - 0.1, oursOps: 1, ajvOps: 1 })), rounds: 15, loadBefore: 0.9, loadAfter, busy: loadAfter > 1.5, firstCompileMs: 4, profiled: true },
});

test('schema rows: >= 1.0x on every fixture is met, one at 0.9x misses it but keeps the 0.8x floor', () => {
  assert.deepEqual(schemaTargets(schemaFigures([1.1, 1.0, 1.2, 1.05])).map((c) => c.verdict), ['met', 'met']);
  const [atLeast, floor] = schemaTargets(schemaFigures([1.1, 0.9, 1.2, 1.05]));
  assert.equal(atLeast!.verdict, 'MISSED');
  assert.equal(floor!.verdict, 'met');
  assert.match(atLeast!.measured, /case 1 0\.90×/);
  assert.match(atLeast!.measured, /profile-schema\.md/);
  assert.equal(schemaTargets(schemaFigures([0.7, 1, 1, 1]))[1]!.verdict, 'MISSED');
});

test('schema rows say when the load was too high to report', () => {
  assert.match(schemaTargets(schemaFigures([1, 1, 1, 1], 2.4))[0]!.measured, /ABOVE 1\.5: repeat/);
});

test('a script that did not complete is "not measured" with its note, never met', () => {
  const failed = { ran: true, note: 'exited with code 1', exitCode: 1, output: '' };
  assert.deepEqual(schemaTargets(failed).map((c) => [c.verdict, c.measured]), [['not measured', 'exited with code 1'], ['not measured', 'exited with code 1']]);
  assert.deepEqual(lintTargets(undefined).map((c) => c.verdict), ['not measured', 'not measured']);
});

test('lint rows: CPU and CLI wall against 500 ms and 1,000 ms', () => {
  const figures = (cpu: number, wall: number) => ({ ran: true, note: 'completed', exitCode: 0, output: '', figures: {
    coldDefault: { cpuMedian: cpu }, coldProviderAll: { cpuMedian: cpu * 1.5 }, tokenizer: { cpuMedian: 380 }, warmCpuMedian: 200,
    cli: { wallMedian: wall, cpuMedian: wall }, cliProviderAll: { wallMedian: wall * 1.4 }, cliEmpty: { wallMedian: 300 }, loadAverage: [0.5, 1.2],
  } });
  assert.deepEqual(lintTargets(figures(499, 999)).map((c) => c.verdict), ['met', 'met']);
  assert.deepEqual(lintTargets(figures(500, 1000)).map((c) => c.verdict), ['MISSED', 'MISSED']);
  assert.match(lintTargets(figures(1100, 1700))[0]!.measured, /token counter load alone 380 ms/);
});

test('the rows land in the one target table at the top of the report', () => {
  const run: RunInfo = { startedAt: 's', finishedAt: 'f', mode: 'full', node: 'v20', cpu: 'cpu', cores: 2, loadAverageBefore: [1, 1, 1], loadAverageAfter: [1, 1, 1], gitCommit: 'abc', build: 'ok', settings: {} };
  const partial = { run, schema: schemaFigures([1.2, 1.1, 0.95, 1.0]) };
  const markdown = renderMarkdown({ ...partial, targets: checkTargets(partial) });
  const table = markdown.slice(markdown.indexOf('## Targets'), markdown.indexOf('\n\n', markdown.indexOf('| target |')));
  assert.match(table, /compileSchema\(\)\.validate.*\| MISSED \|/);
  assert.match(table, /no fixture below 0\.80×.*\| met \|/);
});
