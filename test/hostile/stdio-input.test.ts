// Hostile stdio input through a real `toolwright serve --stdio` child: invalid UTF-8 and malformed
// lines get exact id-less or id-carrying errors and the process keeps serving; an over-long line
// is refused and skipped; a last line without its newline before EOF is answered, then the
// process exits 0.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { META } from '../fixtures/servers/raw-http.js';
import { REPO_ROOT, TSX_LOADER } from '../support/repo-paths.js';

const children: ReturnType<typeof spawn>[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill();
});

/** Writes `input` to a fresh child's stdin, ends it, and returns stdout lines and the exit code. */
async function run(input: Buffer, env: Record<string, string> = {}): Promise<{ lines: string[]; code: number | null }> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, `${REPO_ROOT}/src/cli/main.ts`, 'serve', `${REPO_ROOT}/test/fixtures/servers/everything.ts`, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => { out += chunk; });
  child.stderr.resume();
  const code = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  child.stdin.end(input);
  return { code: await code, lines: out.split('\n').filter((l) => l !== '') };
}

const sum = (id: number, a: number, b: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'calculate_sum', arguments: { a, b }, _meta: META } });

describe('hostile stdio input (real child)', () => {
  it('invalid UTF-8, broken JSON and malformed envelopes each get their exact error; good lines around them are answered', { timeout: 60_000 }, async () => {
    const input = Buffer.concat([
      Buffer.from(`${sum(1, 1, 1)}\n`),
      Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}\n'),
      Buffer.from('{"jsonrpc":"2.0","id":3,\n'),
      Buffer.from('{"jsonrpc":"1.0","id":4,"method":"tools/list"}\n'),
      Buffer.from('{"jsonrpc":"2.0","id":[5],"method":"tools/list"}\n'),
      Buffer.from(`${sum(6, 2, 2)}`), // the last line, without a newline, before EOF
    ]);
    const { lines, code } = await run(input);
    assert.equal(code, 0);
    const byId = (id: number): string | undefined => lines.find((l) => l.startsWith(`{"jsonrpc":"2.0","id":${id},`));
    assert.match(byId(1) ?? '', /"text":"2"/);
    assert.match(byId(6) ?? '', /"text":"4"/, 'the last line without newline is answered');
    assert.equal(byId(4), '{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid request: jsonrpc must be \\"2.0\\""}}');
    const idless = lines.filter((l) => !l.includes('"id":'));
    assert.equal(idless.length, 3, idless.join('\n'));
    assert.ok(idless.includes('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: the message is not valid UTF-8"}}'));
    assert.ok(idless.includes('{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: id must be a string or an integer, got array"}}'));
    const truncated = idless.filter((l) => !l.includes('UTF-8') && !l.includes('got array'));
    assert.match(truncated[0] ?? '', /^\{"jsonrpc":"2\.0","error":\{"code":-32700,"message":"Parse error: [^"]+"\}\}$/);
    assert.equal(lines.length, 6);
    for (const line of lines) assert.ok(line.length < 1000);
  });

  it('a line over the limit is refused once (-32600 naming the limit), skipped, and the next line is answered', { timeout: 60_000 }, async () => {
    const huge = `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}`;
    const { lines, code } = await run(Buffer.from(`${huge}\n${sum(8, 3, 4)}\n`));
    assert.equal(code, 0);
    assert.deepEqual(lines[0], '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: message exceeds 4194304 bytes"}}');
    assert.match(lines[1] ?? '', /^\{"jsonrpc":"2\.0","id":8,"result":.*"text":"7"/);
    assert.equal(lines.length, 2);
  });

  it('a line nesting deeper than 1,100 levels is refused unread (-32600 with its id), and the next line is answered', { timeout: 60_000 }, async () => {
    const deep = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"calculate_sum","arguments":${'{"a":'.repeat(174_000)}1${'}'.repeat(174_000)},"_meta":${JSON.stringify(META)}}}`;
    const { lines, code } = await run(Buffer.from(`${deep}\n${sum(10, 5, 6)}\n`));
    assert.equal(code, 0);
    assert.equal(lines[0], '{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid request: the message nests objects and arrays deeper than 1100 levels; nothing of it was read or run"}}');
    assert.match(lines[1] ?? '', /^\{"jsonrpc":"2\.0","id":10,"result":.*"text":"11"/);
    assert.equal(lines.length, 2);
  });
});
