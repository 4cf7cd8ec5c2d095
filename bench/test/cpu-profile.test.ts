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
