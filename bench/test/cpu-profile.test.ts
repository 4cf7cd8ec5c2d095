import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summariseProfile } from '../lib/cpu-profile.js';

test('self time is attributed per function and per file, idle excluded from the percentages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-prof-'));
  try {
    const root = '/repo';
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4, 5] },
        { id: 2, callFrame: { functionName: 'decode', url: 'file:///repo/dist/server/call-pipeline.js', lineNumber: 87 }, children: [3] },
        { id: 3, callFrame: { functionName: 'serializeResult', url: 'file:///repo/dist/server/call-pipeline.js', lineNumber: 617 } },
        { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
        { id: 5, callFrame: { functionName: 'emit', url: 'node:events', lineNumber: 470 } },
      ],
      samples: [2, 2, 3, 4, 4, 5],
      timeDeltas: [1000, 2000, 3000, 50000, 50000, 4000],
    };
    const path = join(dir, 'x.cpuprofile');
    writeFileSync(path, JSON.stringify(profile));
    const summary = summariseProfile(path, root);
    assert.equal(summary.busyMs, 10);
    assert.equal(summary.idleMs, 100);
    assert.deepEqual(summary.functions.map((s) => [s.where, s.percent]), [
      ['node:events:emit:471', 40],
      ['dist/server/call-pipeline.js:decode:88', 30],
      ['dist/server/call-pipeline.js:serializeResult:618', 30],
    ]);
    assert.deepEqual(summary.files.map((s) => [s.where, s.ms]), [['dist/server/call-pipeline.js', 6], ['node:events', 4]]);
    // decode calls serializeResult here, so its inclusive time covers both.
    assert.deepEqual(summary.projectInclusive.map((s) => [s.where, s.ms]), [
      ['dist/server/call-pipeline.js:decode:88', 6],
      ['dist/server/call-pipeline.js:serializeResult:618', 3],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a build outside the checkout: paths are read from the first root that holds them (project code counted)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-prof-'));
  try {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 3] },
        { id: 2, callFrame: { functionName: 'lintTools', url: 'file:///tmp/lint-build/dist/bundle/chunk.js', lineNumber: 9 } },
        { id: 3, callFrame: { functionName: 'countTokens', url: 'file:///repo/node_modules/gpt-tokenizer/cjs/x.js', lineNumber: 0 } },
      ],
      samples: [2, 3],
      timeDeltas: [3000, 1000],
    };
    const path = join(dir, 'x.cpuprofile');
    writeFileSync(path, JSON.stringify(profile));
    const summary = summariseProfile(path, ['/tmp/lint-build', '/repo']);
    assert.deepEqual(summary.files.map((s) => s.where), ['dist/bundle/chunk.js', 'node_modules/gpt-tokenizer/cjs/x.js']);
    assert.deepEqual(summary.projectInclusive.map((s) => [s.where, s.ms]), [['dist/bundle/chunk.js:lintTools:10', 3]]);
    // With the checkout alone, the temporary build is no project code: the table the lint bench printed empty.
    assert.deepEqual(summariseProfile(path, '/repo').projectInclusive, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
