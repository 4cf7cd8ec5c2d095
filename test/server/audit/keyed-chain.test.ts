/**
 * The keyed audit chain against someone who can write the log's folder but cannot read the key:
 * every way of changing the log (an edit, a cut end, a reordering, a deleted record or log, a
 * rewrite with recomputed plain hashes, a forged head) is reported with its exact problem, by
 * verifyHashChainLog, by `toolwright audit verify` (exit 1) and by a server at start (refused);
 * a crash between a record and its head is not a break. Files are 0600.
 */
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AuditKeyError, createServer, defineTool, auditLog, openHashChainLog, verifyHashChainLog } from '../../../src/index.js';
import { BROKEN_CHAIN_REFUSAL } from '../../../src/server/audit/hash-chain-log.js';
import { lineHash } from '../../../src/server/audit/hash-chain-verify.js';
import { run as auditCommand } from '../../../src/cli/commands/audit.js';

const root = mkdtempSync(join(tmpdir(), 'tw-keyed-'));
after(() => rmSync(root, { recursive: true, force: true }));
let count = 0;

/** A log in a folder of its own, and its key and head in another (the attacker's folder is the log's). */
function files(): { dir: string; path: string; key: string; head: string } {
  const n = ++count;
  const dir = join(root, `logs-${n}`);
  const safe = join(root, `safe-${n}`);
  return { dir, path: join(dir, 'calls.jsonl'), key: join(safe, 'audit.key'), head: join(safe, 'calls.head') };
}

/** A keyed log of chain_keyed + `n` records, closed. Returns its lines. */
function written(f: ReturnType<typeof files>, n = 4): string[] {
  const log = openHashChainLog(f.path, { key: f.key, head: f.head });
  for (let i = 0; i < n; i++) log.append({ type: 'tool_call', tool: i === 1 ? 'move_arm_to_pose' : 'get_device_status', i });
  log.close();
  return readFileSync(f.path, 'utf8').trimEnd().split('\n');
}

const put = (path: string, lines: string[]): void => writeFileSync(path, lines.length === 0 ? '' : `${lines.join('\n')}\n`);

/** Runs `toolwright audit verify` in process; the state folder points nowhere, so only the flags given count. */
async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await auditCommand(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env: { TOOLWRIGHT_STATE_DIR: join(root, 'no-state') } });
  return { code, out, err };
}

describe('keyed audit chain', () => {
  it('an intact log verifies, with its key and head; files are 0600 and the key folder 0700', async () => {
    const f = files();
    const lines = written(f);
    const verdict = verifyHashChainLog(f.path, { key: f.key, head: f.head });
    assert.deepEqual([verdict.ok, verdict.problems, verdict.keyed, verdict.head], [true, [], { fromSeq: 1, keyId: verdict.keyed!.keyId }, { seq: 5, pastHead: 0 }]);
    assert.equal(JSON.parse(lines[0]!).type, 'chain_keyed');
    for (const file of [f.path, f.key, f.head]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
    assert.equal(statSync(join(f.key, '..')).mode & 0o777, 0o700);
    const { code, out } = await cli(['verify', f.path, '--key', f.key, '--head', f.head]);
    assert.equal(code, 0);
    assert.match(out, /^intact: .*calls\.jsonl\n  5 record\(s\) \(seq 1-5\)\n  keyed from seq 1 \(key [0-9a-f]{16}\)\n  sealed head at seq 5\n$/);
  });

  it('detects an edit, a reordering, a deleted record and a cut end, each with its exact problem', async () => {
    const f = files();
    const lines = written(f);
    const edited = lines.map((line, i) => (i === 2 ? line.replace('move_arm_to_pose', 'get_device_status') : line));
    const cases: [string, string[], string[]][] = [
      ['edited', edited, ['calls.jsonl line 4: prev does not match the MAC of the line before']],
      ['reordered', [lines[0]!, lines[2]!, lines[1]!, lines[3]!, lines[4]!], [
        'calls.jsonl line 2: prev does not match the MAC of the line before', 'calls.jsonl line 2: seq is 3, expected 2',
        'calls.jsonl line 3: prev does not match the MAC of the line before', 'calls.jsonl line 3: seq is 2, expected 4',
        'calls.jsonl line 4: prev does not match the MAC of the line before', 'calls.jsonl line 4: seq is 4, expected 3',
      ]],
      ['deleted', [lines[0]!, lines[1]!, lines[3]!, lines[4]!], ['calls.jsonl line 3: prev does not match the MAC of the line before', 'calls.jsonl line 3: seq is 4, expected 3']],
      ['cut', lines.slice(0, 3), [`${f.head}: the head says the log reached seq 5, but it ends at seq 3: 2 record(s) were cut from its end`]],
      ['last edited', [...lines.slice(0, 4), lines[4]!.replace('"i":3', '"i":9')], [`${f.head}: record 5 is not the record sealed in the head: it was edited or replaced`]],
    ];
    for (const [name, content, problems] of cases) {
      put(f.path, content);
      const verdict = verifyHashChainLog(f.path, { key: f.key, head: f.head });
      assert.deepEqual([verdict.ok, verdict.problems], [false, problems], name);
      const { code, out } = await cli(['verify', f.path, '--key', f.key, '--head', f.head]);
      assert.equal(code, 1, name);
      assert.ok(out.startsWith(`BROKEN: ${f.path}\n${problems.map((p) => `  ${p}`).join('\n')}\n`), `${name}: ${out}`);
      // A server refuses to extend it: nothing is appended, no lock left behind.
      assert.throws(() => openHashChainLog(f.path, { key: f.key, head: f.head }), { message: `audit log ${f.path}: ${problems[0]!}${problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : ''}; ${BROKEN_CHAIN_REFUSAL}` });
      assert.equal(readFileSync(f.path, 'utf8'), `${content.join('\n')}\n`, `${name}: the log is left as found`);
    }
  });

  it('a rewrite with recomputed plain hashes is detected, with or without its chain_keyed record', () => {
    const f = files();
    const lines = written(f);
    // The attacker changes record 3 and relinks every later line with the public hash function.
    const rewrite = (source: string[]): string[] => {
      const out: string[] = [];
      for (const [i, line] of source.entries()) {
        const record = JSON.parse(line) as Record<string, unknown>;
        if (record.tool === 'move_arm_to_pose') record.tool = 'get_device_status';
        if (i > 0) record.prev = lineHash(out[i - 1]!);
        out.push(JSON.stringify(record));
      }
      return out;
    };
    put(f.path, rewrite(lines));
    assert.deepEqual(verifyHashChainLog(f.path, { key: f.key, head: f.head }).problems, [
      'calls.jsonl line 2: prev does not match the MAC of the line before',
      'calls.jsonl line 3: prev does not match the MAC of the line before',
      'calls.jsonl line 4: prev does not match the MAC of the line before',
      'calls.jsonl line 5: prev does not match the MAC of the line before',
      `${f.head}: record 5 is not the record sealed in the head: it was edited or replaced`,
    ]);
    // Dropping chain_keyed makes a plain chain that links, but the head says the log was keyed.
    const plain: string[] = [];
    for (const line of lines.slice(1)) {
      const record = JSON.parse(line) as Record<string, unknown>;
      plain.push(JSON.stringify({ ...record, seq: plain.length + 1, prev: plain.length === 0 ? '' : lineHash(plain[plain.length - 1]!) }));
    }
    put(f.path, plain);
    assert.equal(verifyHashChainLog(f.path).ok, true, 'a self-consistent plain chain: what an unkeyed log could not tell apart');
    assert.deepEqual(verifyHashChainLog(f.path, { key: f.key, head: f.head }).problems, [`${f.head}: the head was sealed for a keyed log, but the log has no keyed chain: it was rewritten without its key`]);
  });

  it('a deleted log, a missing head, a forged head and a wrong key are each reported', async () => {
    const f = files();
    written(f);
    const log = readFileSync(f.path, 'utf8');
    unlinkSync(f.path);
    assert.deepEqual(verifyHashChainLog(f.path, { key: f.key, head: f.head }).problems, [`${f.head}: the head says the log reached seq 5, but the log is missing or empty: it was deleted or emptied`]);
    assert.equal((await cli(['verify', f.path, '--key', f.key, '--head', f.head])).code, 1);
    writeFileSync(f.path, '');
    assert.throws(() => openHashChainLog(f.path, { key: f.key, head: f.head }), /the log is missing or empty: it was deleted or emptied/);
    writeFileSync(f.path, log);
    const head = readFileSync(f.head);
    unlinkSync(f.head);
    assert.deepEqual(verifyHashChainLog(f.path, { key: f.key, head: f.head }).problems, [`${f.head}: no head, but the log is keyed (from seq 1): a deleted head hides a truncated log (if the head was moved, name it)`]);
    // A head whose seal was recomputed without the key (here: its seq lowered to match a cut log).
    writeFileSync(f.head, head.toString('latin1').replace(/"seq":(\d+)/g, '"seq":3'), 'latin1');
    assert.deepEqual(verifyHashChainLog(f.path, { key: f.key, head: f.head }).problems, [`${f.head}: the head ${f.head} holds no head sealed with the key ${f.key} (forged or damaged)`]);
    writeFileSync(f.head, head);
    const other = join(root, `other-key-${count}`, 'audit.key');
    openHashChainLog(join(root, `other-log-${count}`, 'x.jsonl'), { key: other, head: join(root, `other-key-${count}`, 'x.head') }).close();
    const wrong = verifyHashChainLog(f.path, { key: other, head: f.head });
    const keyId = verifyHashChainLog(f.path, { key: f.key }).keyed!.keyId;
    const otherId = verifyHashChainLog(join(root, `other-log-${count}`, 'x.jsonl'), { key: other }).keyed!.keyId;
    assert.deepEqual(wrong.problems, [
      `calls.jsonl line 1: the chain is keyed with key ${keyId}, but the key given (${other}) is ${otherId}: wrong key`,
      `${f.head}: the head ${f.head} was sealed with another key (key ${keyId}, not ${otherId} from ${other})`,
    ]);
    const { code, out } = await cli(['verify', f.path, '--key', other, '--head', f.head]);
    assert.deepEqual([code, out.split('\n')[1]], [1, `  ${wrong.problems[0]}`]);
    // Without any key, a keyed log cannot be vouched for.
    assert.deepEqual(verifyHashChainLog(f.path).problems, [`calls.jsonl line 1: the chain is keyed from seq 1 (key ${keyId}): give its key to verify the records from here on`]);
  });

  it('a crash between a record and its head is not a break, and reopening reseals; a torn tail is no false alarm either', () => {
    const f = files();
    written(f, 2);
    const headBefore = readFileSync(f.head);
    const log = openHashChainLog(f.path, { key: f.key, head: f.head });
    log.append({ type: 'tool_call', tool: 'get_device_status', i: 2 });
    log.close();
    // The process died after the record's fsync, before the head's write: the old head is what is on disk.
    writeFileSync(f.head, headBefore);
    writeFileSync(f.path, `${readFileSync(f.path, 'utf8')}{"seq":5,"time":"2026-`);
    const verdict = verifyHashChainLog(f.path, { key: f.key, head: f.head });
    assert.deepEqual([verdict.ok, verdict.problems, verdict.head, verdict.tornLines], [true, [], { seq: 3, pastHead: 1 }, 1]);
    const reopened = openHashChainLog(f.path, { key: f.key, head: f.head });
    assert.equal(reopened.append({ type: 'after_crash' }).seq, 5);
    reopened.close();
    const healed = verifyHashChainLog(f.path, { key: f.key, head: f.head });
    assert.deepEqual([healed.ok, healed.head], [true, { seq: 5, pastHead: 0 }]);
  });

  it('an unkeyed log is continued keyed: its old records stay plain, the rest are keyed', () => {
    const f = files();
    const plain = openHashChainLog(f.path);
    plain.append({ type: 'old' });
    plain.close();
    chmodSync(f.path, 0o644);
    written(f, 1);
    assert.equal(statSync(f.path).mode & 0o777, 0o600, 'an existing world-readable log is made 0600');
    const verdict = verifyHashChainLog(f.path, { key: f.key, head: f.head });
    assert.deepEqual([verdict.ok, verdict.records.map((r) => r.type), verdict.keyed?.fromSeq], [true, ['old', 'chain_keyed', 'tool_call'], 2]);
  });

  it('refuses a key or head inside the log\'s folder, a key others can read, and a keyed log whose key is gone', () => {
    const f = files();
    mkdirSync(f.dir, { recursive: true });
    assert.throws(() => openHashChainLog(f.path, { key: join(f.dir, 'audit.key'), head: f.head }), { name: 'RangeError', message: new RegExp(`^audit log ${f.path}: its key ${join(f.dir, 'audit.key')} must not be inside the log's folder`) });
    assert.throws(() => openHashChainLog(f.path, { key: f.key, head: join(f.dir, 'sub', 'h.head') }), { name: 'RangeError', message: /its head .* must not be inside the log's folder/ });
    assert.throws(() => openHashChainLog(f.path, { key: f.key }), { name: 'RangeError', message: 'hash-chain log: key and head go together (a keyed chain without its head cannot tell a cut-off end)' });
    written(f, 1);
    chmodSync(f.key, 0o644);
    assert.throws(() => openHashChainLog(f.path, { key: f.key, head: f.head }), (error: unknown) => error instanceof AuditKeyError && error.message === `audit key ${f.key} can be read by others (mode 0644): run chmod 600 ${f.key}`);
    chmodSync(f.key, 0o600);
    copyFileSync(f.key, `${f.key}.saved`);
    unlinkSync(f.key);
    const keyId = verifyHashChainLog(f.path).keyed!.keyId;
    assert.throws(() => openHashChainLog(f.path, { key: f.key, head: f.head }), (error: unknown) => error instanceof AuditKeyError && error.message === `audit key ${f.key} does not exist, but the log ${f.path} is keyed (key ${keyId}): restore that key file`);
    assert.equal(verifyHashChainLog(f.path).records.length, 2, 'nothing was appended');
  });

  it('a server refuses to start on a cut log, saying so, and runs nothing', async () => {
    const f = files();
    let runs = 0;
    const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => { runs++; return 'pong'; } });
    const first = createServer({ name: 'a', version: '1', tools: [ping], use: [auditLog({ path: f.path, key: f.key, head: f.head })] });
    const listener = await first.listen({ port: 0 });
    await listener.close();
    await first.close();
    const lines = readFileSync(f.path, 'utf8').trimEnd().split('\n');
    put(f.path, []);
    const server = createServer({ name: 'b', version: '1', tools: [ping], use: [auditLog({ path: f.path, key: f.key, head: f.head })] });
    await assert.rejects(server.listen({ port: 0 }), { message: `audit log ${f.path}: ${f.head}: the head says the log reached seq ${lines.length}, but the log is missing or empty: it was deleted or emptied; ${BROKEN_CHAIN_REFUSAL}` });
    await server.close();
    assert.equal(runs, 0);
  });

  it('toolwright audit verify: bad usage exits 2 with the reason', async () => {
    const f = files();
    written(f, 1);
    assert.deepEqual(await cli([]), { code: 2, out: '', err: (await cli([])).err });
    assert.match((await cli([])).err, /^toolwright audit: expected a subcommand: verify\n/);
    assert.match((await cli(['check', f.path])).err, /^toolwright audit: unknown subcommand "check" \(expected verify\)\n/);
    assert.match((await cli(['verify'])).err, /^toolwright audit: verify takes exactly one log, got 0\n/);
    assert.match((await cli(['verify', f.path, '--head', f.head])).err, /^toolwright audit: --head needs the key the head was sealed with: no --key given and no key at /);
    const missingKey = await cli(['verify', f.path, '--key', join(root, 'nope.key')]);
    assert.deepEqual([missingKey.code, missingKey.err], [2, `toolwright audit: audit key ${join(root, 'nope.key')} does not exist\n`]);
    const missingLog = await cli(['verify', join(root, 'nope.jsonl')]);
    assert.deepEqual([missingLog.code, missingLog.err], [2, `toolwright audit: no log at ${join(root, 'nope.jsonl')}\n`]);
    // Without --key, the default key (absent here) is not used: a keyed log cannot be vouched for.
    const keyless = await cli(['verify', f.path]);
    assert.equal(keyless.code, 1);
    assert.match(keyless.out, /give its key to verify the records from here on/);
  });
});
