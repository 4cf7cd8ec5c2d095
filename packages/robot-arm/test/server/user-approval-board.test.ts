/**
 * The board of motions awaiting a client's user, on its own: entries end once (answered, declined,
 * expired, stopped), a decline is remembered for the answer until the question expires, and the
 * board is bounded.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UserApprovalBoard, type AwaitingUserEvent } from '../../server/user-approval-board.js';

const motion = (id: string) => ({ id, tool: 'move_arm_to_pose', summary: `move ${id}`, planHash: `hash-${id}`, details: undefined });
const nextEnd = (board: UserApprovalBoard): Promise<AwaitingUserEvent> => new Promise((resolve) => {
  const stop = board.subscribe((event) => {
    if (event.type !== 'ended') return;
    stop();
    resolve(event);
  });
});

describe('UserApprovalBoard', () => {
  it('lists what awaits, and each entry ends once: answered, declined (remembered for the answer), stopped', () => {
    let now = 1_000;
    const board = new UserApprovalBoard(60_000, () => now);
    const events: string[] = [];
    board.subscribe((e) => events.push(e.type === 'awaiting' ? `awaiting ${e.entry.id}` : `ended ${e.entry.id} ${e.end}${e.operator !== undefined ? ` by ${e.operator}` : ''}`));
    const a = board.add(motion('a'));
    assert.deepEqual([a.askedAt, a.expiresAt], [1_000, 61_000]);
    board.add(motion('b'));
    board.add(motion('c'));
    assert.deepEqual(board.list().map((e) => e.id), ['a', 'b', 'c']);
    assert.equal(board.answered('a'), undefined, 'not declined');
    assert.deepEqual(board.decline('b', 'ops'), { ok: true, entry: { ...motion('b'), askedAt: 1_000, expiresAt: 61_000 } });
    assert.deepEqual(board.list().map((e) => e.id), ['c']);
    assert.equal(board.decline('b', 'ops').ok, false, 'a second decline finds nothing');
    assert.equal(board.answered('b'), 'ops', 'the answer learns who declined');
    assert.equal(board.answered('b'), undefined, 'once');
    board.stopped();
    assert.deepEqual(board.list(), []);
    assert.deepEqual(events, ['awaiting a', 'awaiting b', 'awaiting c', 'ended a answered', 'ended b declined by ops', 'ended c stopped']);
    // A decline is forgotten once its question expired (its answer is refused as expired anyway).
    board.add(motion('d'));
    board.decline('d', 'ops');
    now += 60_001;
    assert.equal(board.answered('d'), undefined);
    assert.deepEqual(board.decline('zzz', 'ops'), { ok: false, reason: 'unknown', message: 'no motion awaiting a client\'s user has id "zzz" (answered, expired, stopped or declined already)' });
  });

  it('an unanswered entry leaves the board as expired when its question expires (timer event)', async () => {
    const board = new UserApprovalBoard(5);
    const ended = nextEnd(board);
    board.add(motion('e'));
    // The board's expiry timer is unref'd (it must not keep a server alive): a ref'd handle keeps
    // this test's process up until the event arrives, else the run may end first and cancel it.
    const keepAlive = setInterval(() => {}, 60_000);
    const event = await ended.finally(() => clearInterval(keepAlive));
    assert.equal(event.type === 'ended' ? event.end : '', 'expired');
    assert.deepEqual(board.list(), []);
  });

  it('is bounded: past 100 entries the oldest leaves as expired', () => {
    const board = new UserApprovalBoard(60_000);
    for (let i = 0; i < 100; i++) board.add(motion(`m${i}`));
    const ended: string[] = [];
    board.subscribe((e) => e.type === 'ended' && ended.push(`${e.entry.id} ${e.end}`));
    board.add(motion('m100'));
    assert.deepEqual(ended, ['m0 expired']);
    assert.equal(board.list().length, 100);
    assert.equal(board.list()[0]?.id, 'm1');
    board.stopped();
  });
});
