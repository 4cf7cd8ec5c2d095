/**
 * The controller socket against hostile or mistaken peers: a real ControllerService (the one robot-sim
 * runs) on a real Unix socket in a private directory, spoken to with raw frames. Every refusal is
 * checked by its code, and that nothing moved.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ArmModel } from '../../model/arm-model.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import { clientProof, newNonce, newSecret } from '../../controller/controller-auth.js';
import { ControllerLink } from '../../controller/controller-link.js';
import { ControllerService } from '../../controller/controller-service.js';
import { MAX_FRAME_BYTES } from '../../controller/frame-codec.js';
import { encodeTrajectory } from '../../model/trajectory-wire.js';
import { LatchFile } from '../../server/estop-latch-file.js';

const HOME = [0, -90, 90, -90, -90, 0];

/** A raw peer: every frame it receives, and whether the controller closed it. */
class RawPeer {
  readonly frames: Array<Record<string, unknown>> = [];
  closed = false;
  private buffer = '';
  private waiters: Array<() => void> = [];
  readonly socket: Socket;

  constructor(path: string) {
    this.socket = connect(path);
    this.socket.setEncoding('utf8');
    this.socket.on('data', (text: string) => {
      this.buffer += text;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        this.frames.push(JSON.parse(this.buffer.slice(0, nl)) as Record<string, unknown>);
        this.buffer = this.buffer.slice(nl + 1);
      }
      this.wake();
    });
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  /** Resolves with the first frame matching `test` (bounded: rejects when the socket closes without one). */
  async next(test: (f: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const found = this.frames.find(test);
      if (found !== undefined) return found;
      if (this.closed) throw new Error(`closed without the expected frame; got ${JSON.stringify(this.frames.map((f) => f.type))}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async untilClosed(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  send(text: string): void {
    this.socket.write(text);
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }
}

describe('controller socket', () => {
  const dir = mkdtempSync(join(tmpdir(), 'robot-sim-socket-'));
  const socketPath = join(dir, 'controller.sock');
  const secret = newSecret();
  const arm = new SimArmDriver({ pacer: steppedPacer(20) });
  const service = new ControllerService({ driver: arm, preset: arm.model.preset, secret, latchStore: new LatchFile(join(dir, 'latch.json')) });
  const model = new ArmModel({ preset: 'ur5e' });
  const wireMove = () => {
    const plan = model.planWaypoints(arm.status().jointsDeg, [{ position: { x: -450, y: -150, z: 420 } }]);
    assert.ok(plan.ok);
    return encodeTrajectory(plan.trajectory);
  };

  before(() => service.listen(socketPath));
  after(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes the socket owner-only (0600)', () => {
    assert.equal(statSync(socketPath).mode & 0o777, 0o600);
  });

  it('refuses a request before authentication and closes; nothing moves', async () => {
    const peer = new RawPeer(socketPath);
    await peer.next((f) => f.type === 'hello');
    peer.send(`${JSON.stringify({ type: 'request', id: 1, op: 'execute', args: { motionId: 'm-x', trajectory: wireMove() } })}\n`);
    const error = await peer.next((f) => f.type === 'error');
    assert.equal(error.code, 'not_authenticated');
    await peer.untilClosed();
    assert.equal(peer.frames.some((f) => f.type === 'response' || f.type === 'state'), false);
    assert.deepEqual(arm.status().jointsDeg, HOME);
    assert.equal(arm.status().state, 'idle');
  });

  it('refuses a wrong secret (auth_failed), and a request sent in the same chunk is not looked at', async () => {
    const peer = new RawPeer(socketPath);
    const hello = await peer.next((f) => f.type === 'hello');
    const nonce = newNonce();
    const forged = clientProof(newSecret(), String(hello.nonce), nonce);
    peer.send(`${JSON.stringify({ type: 'auth', nonce, mac: forged })}\n${JSON.stringify({ type: 'request', id: 2, op: 'stop', args: { mode: 'emergency' } })}\n`);
    const error = await peer.next((f) => f.type === 'error');
    assert.equal(error.code, 'auth_failed');
    await peer.untilClosed();
    assert.equal(arm.status().state, 'idle', 'the emergency stop after the failed auth was not performed');
    assert.equal(service.emergencyStop, null);
  });

  it('a link with the wrong secret is refused with the controller\'s reason', async () => {
    await assert.rejects(ControllerLink.open({ socketPath, secret: newSecret() }), (error: Error) => {
      assert.match(error.message, /refused the connection: auth_failed/);
      return true;
    });
  });

  it('refuses a frame over the size bound with frame_too_large, and JSON that is not an object with bad_json', async () => {
    const big = new RawPeer(socketPath);
    await big.next((f) => f.type === 'hello');
    big.send('x'.repeat(MAX_FRAME_BYTES + 10));
    assert.equal((await big.next((f) => f.type === 'error')).code, 'frame_too_large');
    await big.untilClosed();
    const bad = new RawPeer(socketPath);
    await bad.next((f) => f.type === 'hello');
    bad.send('[1,2]\n');
    assert.equal((await bad.next((f) => f.type === 'error')).code, 'bad_json');
    await bad.untilClosed();
  });

  it('answers a bad request with a specific error and keeps the connection; a tampered trajectory is refused by digest and nothing runs', async () => {
    const { link } = await ControllerLink.open({ socketPath, secret });
    try {
      await assert.rejects(link.request('stop', { mode: 'sideways' }), (e: Error & { fault?: { code?: string } }) => e.fault?.code === 'bad_args');
      const wire = wireMove();
      const tampered = { ...wire, segments: wire.segments.map((s, i) => (i === 0 ? { ...s, knotsRad: s.knotsRad.map((k, j) => (j === s.knotsRad.length - 1 ? k.map((v) => v + 0.2) : k)) } : s)) };
      await assert.rejects(link.request('execute', { motionId: 'm-t', trajectory: tampered }, { timeoutMs: null }), (e: Error & { fault?: { code?: string } }) => {
        assert.equal(e.fault?.code, 'trajectory_mismatch');
        assert.match(e.message, /nothing was run/);
        return true;
      });
      assert.deepEqual(arm.status().jointsDeg, HOME);
      const wrongArm = { ...wire, presetId: 'xarm6' };
      await assert.rejects(link.request('execute', { motionId: 'm-w', trajectory: wrongArm }, { timeoutMs: null }), (e: Error & { fault?: { code?: string } }) => e.fault?.code === 'wrong_arm');
      // The link still works after the refusals.
      const status = await link.request('status');
      assert.equal((status.status as { state: string }).state, 'idle');
    } finally {
      link.close();
    }
  });

  it('runs an authenticated motion with progress carrying every control sample, then reports its end', async () => {
    const { link, report } = await ControllerLink.open({ socketPath, secret });
    try {
      assert.deepEqual(report.status.jointsDeg, HOME);
      let samples = 0;
      const result = await link.request('execute', { motionId: 'm-ok', trajectory: wireMove() }, { timeoutMs: null, onProgress: (p) => (samples += p.samples.length) });
      const end = result.end as { status: string; motionId: string; elapsedS: number };
      assert.equal(end.status, 'completed');
      assert.equal(end.motionId, 'm-ok');
      // 4 ms control ticks: one sample per tick of the motion.
      assert.ok(samples >= Math.floor((end.elapsedS * 1000) / 4) - 1, `${samples} samples for ${end.elapsedS} s`);
    } finally {
      link.close();
    }
  });
});
