/**
 * Moving the default audit log into the checkout must not release an arm whose e-stop was latched
 * under the old default (<tmp>/toolwright-robot-arm/): such a latch is carried over, still latched.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LatchFile, latchPathFor } from '../../server/estop-latch-file.js';
import { AuditLog } from '../../server/audit-log.js';
import { adoptLegacyLatches, carryLegacyLatchesAtStart, legacyDefaultAuditLogPath } from '../../server/legacy-latch.js';

interface Scene { root: string; auditLog: string; legacy: string }

/** A checkout's `.data/` and an old temp directory, both under one folder removed afterwards. */
function withScene(body: (s: Scene) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'robot-legacy-latch-'));
  try {
    const auditLog = join(root, 'checkout', '.data', 'audit.jsonl');
    mkdirSync(join(root, 'checkout', '.data'), { recursive: true });
    mkdirSync(join(root, 'tmp', 'toolwright-robot-arm'), { recursive: true });
    body({ root, auditLog, legacy: legacyDefaultAuditLogPath(auditLog, join(root, 'tmp')) });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const LATCH = { reason: 'stop_arm called by the operator', source: 'stop_arm' as const, at: '2026-11-30T10:00:00.000Z' };

describe('e-stop latched under the old default path', () => {
  it('the old default is <tmp>/toolwright-robot-arm/<the log\'s name>', () => {
    assert.equal(legacyDefaultAuditLogPath('/c/.data/audit.jsonl', '/tmp'), '/tmp/toolwright-robot-arm/audit.jsonl');
    assert.equal(legacyDefaultAuditLogPath('/c/.data/audit-stdio.jsonl', '/tmp'), '/tmp/toolwright-robot-arm/audit-stdio.jsonl');
  });

  it('is carried over (server and controller latch), still latched, the old files left for other checkouts, the operator told', () => withScene((s) => {
    new LatchFile(latchPathFor(s.legacy)).save(LATCH);
    new LatchFile(`${s.legacy}.controller-estop.json`).save({ ...LATCH, source: 'watchdog' });
    const lines = adoptLegacyLatches(s.auditLog, s.legacy);
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^robot-arm: an e-stop latched under the old default path .*audit\.jsonl\.estop\.json \(stop_arm, 2026-11-30T10:00:00\.000Z\) is carried over to .*checkout\/\.data\/audit\.jsonl\.estop\.json: the arm stays stopped until an operator resets it\. The old file is left for other checkouts that may use it; delete it once none does\.$/);
    const carried = new LatchFile(latchPathFor(s.auditLog)).load();
    assert.equal(carried?.source, 'stop_arm');
    assert.equal(carried?.at, LATCH.at);
    assert.match(carried?.reason ?? '', /^stop_arm called by the operator \(latched under the old default path .*, carried over\)$/);
    assert.equal(new LatchFile(`${s.auditLog}.controller-estop.json`).load()?.source, 'watchdog');
    assert.deepEqual(new LatchFile(latchPathFor(s.legacy)).load(), LATCH, 'the old latch still holds for checkouts that read it');
    assert.equal(new LatchFile(`${s.legacy}.controller-estop.json`).load()?.source, 'watchdog');
    assert.deepEqual(adoptLegacyLatches(s.auditLog, s.legacy), [], 'a second start has nothing new to carry');
  }));

  it('an operator reset here is not undone by carrying the same old latch again; a newer old latch is carried', () => withScene((s) => {
    new LatchFile(latchPathFor(s.legacy)).save(LATCH);
    assert.equal(adoptLegacyLatches(s.auditLog, s.legacy).length, 1);
    new LatchFile(latchPathFor(s.auditLog)).save(null);
    assert.deepEqual(adoptLegacyLatches(s.auditLog, s.legacy), []);
    assert.equal(new LatchFile(latchPathFor(s.auditLog)).load(), null);
    new LatchFile(latchPathFor(s.legacy)).save({ ...LATCH, at: '2026-12-02T09:00:00.000Z' });
    assert.equal(adoptLegacyLatches(s.auditLog, s.legacy).length, 1);
    assert.equal(new LatchFile(latchPathFor(s.auditLog)).load()?.at, '2026-12-02T09:00:00.000Z');
  }));

  it('at start-up: only for a log in the default directory, and never while another server holds the log', () => withScene((s) => {
    new LatchFile(latchPathFor(join(s.root, 'tmp', 'toolwright-robot-arm', 'audit.jsonl'))).save(LATCH);
    const elsewhere = join(s.root, 'elsewhere', 'audit.jsonl');
    mkdirSync(join(s.root, 'elsewhere'));
    assert.deepEqual(carryLegacyLatchesAtStart(elsewhere, s.auditLog, join(s.root, 'tmp')), [], 'an explicit --audit-log elsewhere is left alone');
    assert.equal(existsSync(latchPathFor(elsewhere)), false);
    const running = new AuditLog(s.auditLog);
    try {
      assert.deepEqual(carryLegacyLatchesAtStart(s.auditLog, s.auditLog, join(s.root, 'tmp')), [], 'a log held by a running server is left alone');
      assert.equal(existsSync(latchPathFor(s.auditLog)), false);
    } finally {
      running.close();
    }
    assert.equal(carryLegacyLatchesAtStart(s.auditLog, s.auditLog, join(s.root, 'tmp')).length, 1);
    assert.equal(new LatchFile(latchPathFor(s.auditLog)).load()?.at, LATCH.at);
    assert.equal(existsSync(`${s.auditLog}.lock`), false, 'the lock is released again');
  }));

  it('never overwrites a latch file already in the checkout, and leaves the old one in place then', () => withScene((s) => {
    new LatchFile(latchPathFor(s.legacy)).save(LATCH);
    const mine = { reason: 'safety monitor: joint 3 over its limit', source: 'safety_monitor' as const, at: '2026-12-01T08:00:00.000Z' };
    new LatchFile(latchPathFor(s.auditLog)).save(mine);
    assert.deepEqual(adoptLegacyLatches(s.auditLog, s.legacy), []);
    assert.deepEqual(new LatchFile(latchPathFor(s.auditLog)).load(), mine);
    assert.equal(existsSync(latchPathFor(s.legacy)), true);
  }));

  it('a damaged old latch file is carried as latched (when in doubt, the arm stays stopped)', () => withScene((s) => {
    writeFileSync(latchPathFor(s.legacy), '{"latched": tru');
    const lines = adoptLegacyLatches(s.auditLog, s.legacy);
    assert.equal(lines.length, 1);
    assert.match(new LatchFile(latchPathFor(s.auditLog)).load()?.reason ?? '', /is damaged; treated as latched \(latched under the old default path/);
    assert.match(readFileSync(latchPathFor(s.auditLog), 'utf8'), /"latched":true/);
  }));

  it('with nothing at the old place: nothing is written and nothing said', () => withScene((s) => {
    assert.deepEqual(adoptLegacyLatches(s.auditLog, s.legacy), []);
    assert.equal(existsSync(latchPathFor(s.auditLog)), false);
    assert.equal(existsSync(`${s.auditLog}.controller-estop.json`), false);
  }));
});
