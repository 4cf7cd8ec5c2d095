/**
 * One open SSE stream showing a stream's events (legacy-stream-attachment.ts): events arriving out
 * of order (two instances appending to one GET stream, their events relayed over different
 * connections) are written in order, once, with the missing ones read back from the buffer; a gap
 * the buffer cannot fill ends the stream so that the client resumes and learns it. The recording
 * EventStream here stands in for the HTTP response; over HTTP see test/server/legacy-resume*.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventIdOf, type StreamEvent } from '../../src/server/legacy/replay.js';
import { StreamAttachment, type Refill } from '../../src/server/legacy/stream-attachment.js';
import type { EventStream } from '../../src/transport/message-dispatcher.js';

const STREAM = 'g0123456789ab';
const event = (seq: number, final = false, restart = false): StreamEvent => ({ seq, id: eventIdOf(STREAM, seq), json: `{"n":${seq}}`, final, restart });

function recorder(): EventStream & { sent: number[]; ended: boolean } {
  const sent: number[] = [];
  return {
    sent,
    ended: false,
    send(json) { sent.push((JSON.parse(json) as { n: number }).n); return true; },
    keepAlive() {},
    end() { this.ended = true; },
    onClose() {},
  };
}

/** A refill answering from `kept` (the buffer), counting its reads, resolving when told. */
function buffer(kept: number[] | 'gone'): { refill: Refill; reads: number[]; answer: () => Promise<void> } {
  const reads: number[] = [];
  let release!: () => void;
  let gate = new Promise<void>((resolve) => (release = resolve));
  let answered!: () => void;
  const done = new Promise<void>((resolve) => (answered = resolve));
  return {
    reads,
    refill: async (after) => {
      reads.push(after);
      await gate;
      gate = Promise.resolve();
      queueMicrotask(answered);
      return kept === 'gone' ? 'gone' : kept.filter((seq) => seq > after).map((seq) => event(seq));
    },
    answer: async () => {
      release();
      await done;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('a stream attachment', () => {
  it('an event ahead of a missing one waits; the buffer is read once; all are written in order, once', async () => {
    const kept = buffer([5, 6, 7, 8]);
    const attachment = new StreamAttachment(5, kept.refill);
    const stream = recorder();
    attachment.bind(stream);
    attachment.deliver(event(6));
    attachment.deliver(event(8)); // 7 comes from another instance, later
    assert.deepEqual(stream.sent, [6]);
    attachment.deliver(event(9)); // a second early one does not read again
    assert.deepEqual(kept.reads, [6]);
    await kept.answer();
    assert.deepEqual(stream.sent, [6, 7, 8, 9]);
    attachment.deliver(event(7)); // the relayed copy, late: already written
    attachment.deliver(event(10));
    assert.deepEqual(stream.sent, [6, 7, 8, 9, 10]);
    assert.equal(stream.ended, false);
  });

  it('a missing event that arrives live while the buffer is being read is written once', async () => {
    const kept = buffer([2, 3]);
    const attachment = new StreamAttachment(1, kept.refill);
    const stream = recorder();
    attachment.bind(stream);
    attachment.deliver(event(3));
    attachment.deliver(event(2));
    assert.deepEqual(stream.sent, [2, 3]);
    await kept.answer();
    assert.deepEqual(stream.sent, [2, 3]);
    assert.equal(stream.ended, false);
  });

  it('a gap the buffer no longer holds ends the stream (the client resumes and is told), writing nothing after it', async () => {
    for (const kept of [buffer('gone'), buffer([4])]) {
      const attachment = new StreamAttachment(1, kept.refill);
      const stream = recorder();
      attachment.bind(stream);
      attachment.deliver(event(2));
      attachment.deliver(event(4));
      await kept.answer();
      assert.deepEqual([stream.sent, stream.ended], [[2], true]);
      attachment.deliver(event(3));
      assert.deepEqual(stream.sent, [2]);
    }
  });

  it('a plain GET shows from the first event it sees; events before the HTTP stream wait, in order; a final event ends it', () => {
    const attachment = new StreamAttachment(undefined, () => assert.fail('no gap, no read'));
    attachment.deliver(event(41));
    attachment.deliver(event(40));
    const stream = recorder();
    attachment.bind(stream);
    assert.deepEqual(stream.sent, [40, 41]);
    attachment.deliver(event(42, true));
    attachment.deliver(event(43));
    assert.deepEqual([stream.sent, stream.ended], [[40, 41, 42], true]);
  });

  it('after a buffer expired while the stream was quiet, the re-read shows the new one\'s restart event, and the stream goes on from it', async () => {
    const kept: Refill = async (after) => {
      reads.push(after);
      return [event(500, false, true), event(501)];
    };
    const reads: number[] = [];
    const attachment = new StreamAttachment(7, kept);
    const stream = recorder();
    attachment.bind(stream);
    attachment.deliver(event(8));
    attachment.deliver(event(501)); // relayed before the restart event: ahead of a missing one
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(reads, [8]);
    attachment.deliver(event(500)); // the relayed copy, late
    attachment.deliver(event(502));
    assert.deepEqual([stream.sent, stream.ended], [[8, 500, 501, 502], false]);
  });
});
