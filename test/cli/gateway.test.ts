/** `toolwright gateway nginx`: the generated config passes `nginx -t`, carries the routes and limits of the contracts, and bad input exits 2 with a specific message. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { nginxConfig } from '../../src/cli/gateway/nginx-config.js';
import { missing, nginxTest } from '../support/local-services.js';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';
import { SCALEOUT_TOOLS } from '../support/scaleout-cluster.js';

const noNginx = missing('nginx');
if (noNginx !== undefined) process.stdout.write(`# skipping nginx -t checks: ${noNginx}\n`);

function gateway(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', TSX_LOADER, repoPath('src', 'cli', 'main.ts'), 'gateway', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('toolwright gateway nginx', () => {
  it('writes a config from the tool contracts: pool, the device tool to its owner, limit_req from rateLimit()', () => {
    const run = gateway('nginx', SCALEOUT_TOOLS, '--upstream', '127.0.0.1:9001', '--upstream', '127.0.0.1:9002', '--owner', '127.0.0.1:9002', '--listen', '127.0.0.1:18080', '--max-body', '65536');
    assert.equal(run.code, 0, run.stderr);
    const text = run.stdout;
    assert.match(text, /upstream toolwright_pool \{\n {4}server 127\.0\.0\.1:9001 max_fails=1 fail_timeout=2s;\n {4}server 127\.0\.0\.1:9002 max_fails=1 fail_timeout=2s;/);
    assert.match(text, /upstream toolwright_owner \{\n {4}server 127\.0\.0\.1:9002;/);
    // move_arm is not read-only: it goes to the owner; read_state and search (readOnlyHint) stay in the pool.
    assert.match(text, /"tools\/call:move_arm" toolwright_owner;/);
    assert.doesNotMatch(text, /"tools\/call:(read_state|search)" toolwright_owner/);
    // With a device tool, legacy requests (no Mcp-Method: nginx cannot see whether they call it) go to the owner.
    assert.match(text, /"~\^:" toolwright_owner;/);
    // search has rateLimit({ capacity: 5, refillPerSecond: 0.5, per: 'tool' }).
    assert.match(text, /"tools\/call:search" \$http_mcp_name;/);
    assert.match(text, /limit_req_zone \$toolwright_limit_0 zone=toolwright_0:10m rate=30r\/m;/);
    assert.match(text, /limit_req zone=toolwright_0 burst=5 nodelay;/);
    assert.match(text, /client_max_body_size 65536;/);
    assert.doesNotMatch(text, /daemon off/);
  });

  it('legacy requests go to the pool when no tool is a device tool, or when told (--legacy-to); a bad choice is refused', () => {
    const tools = [{ name: 'read', device: false }];
    assert.match(nginxConfig({ tools, pool: ['127.0.0.1:9001'] }), /"~\^:" toolwright_pool;/);
    assert.match(nginxConfig({ tools: [...tools, { name: 'arm', device: true }], pool: ['127.0.0.1:9001'], legacyTo: 'pool' }), /"~\^:" toolwright_pool;/);
    assert.match(nginxConfig({ tools, pool: ['127.0.0.1:9001'], legacyTo: 'owner' }), /"~\^:" toolwright_owner;/);
    assert.throws(() => nginxConfig({ tools, pool: ['127.0.0.1:9001'], legacyTo: 'any' as never }), { name: 'GatewayConfigError', message: '--legacy-to must be owner or pool, got "any"' });
  });

  it('the config passes nginx -t', { skip: noNginx }, () => {
    // A device tool with a name of the longest valid length: its map key must fit nginx's map hash.
    const longest = `arm_${'x'.repeat(124)}`;
    const text = nginxConfig({ tools: [{ name: 'read', device: false }, { name: 'arm.move', device: true, rateLimit: { capacity: 2, refillPerSecond: 3, per: 'tool-and-subject' } }, { name: longest, device: true, rateLimit: { capacity: 1, refillPerSecond: 1, per: 'tool' } }], pool: ['127.0.0.1:9001', 'localhost:9002'], listen: '127.0.0.1:18081', foreground: true });
    assert.match(text, new RegExp(`"tools/call:${longest}" toolwright_owner;`));
    const checked = nginxTest(text);
    assert.equal(checked.status, 0, checked.output);
    assert.match(checked.output, /syntax is ok/);
    assert.match(text, /rate=3r\/s;/);
  });

  it('--device-tool picks the owner\'s tools explicitly; an unknown one is refused', () => {
    const ok = gateway('nginx', SCALEOUT_TOOLS, '--upstream', '127.0.0.1:9001', '--device-tool', 'read_state');
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /"tools\/call:read_state" toolwright_owner;/);
    assert.doesNotMatch(ok.stdout, /"tools\/call:move_arm" toolwright_owner;/);
    const bad = gateway('nginx', SCALEOUT_TOOLS, '--upstream', '127.0.0.1:9001', '--device-tool', 'nope');
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, `toolwright gateway: --device-tool "nope" is not a tool of ${SCALEOUT_TOOLS} (tools: read_state, search, move_arm)\n`);
    assert.equal(bad.stdout, '');
  });

  it('bad usage exits 2 with the reason and writes no config', () => {
    const cases: [string[], string][] = [
      [['nginx', SCALEOUT_TOOLS], 'toolwright gateway: the pool needs at least one instance (--upstream host:port)\n'],
      [['nginx', SCALEOUT_TOOLS, '--upstream', 'nohost'], 'toolwright gateway: --upstream must be host:port, got "nohost"\n'],
      [['nginx', SCALEOUT_TOOLS, '--upstream', 'h:1', '--listen', 'x y'], 'toolwright gateway: --listen must be a port or addr:port, got "x y"\n'],
      [['nginx', SCALEOUT_TOOLS, '--upstream', 'h:1', '--max-body', '12k'], 'toolwright gateway: --max-body must be a whole number of bytes, got "12k"\n'],
      [['nginx', SCALEOUT_TOOLS, '--upstream', 'h:1', '--max-body', '10'], 'toolwright gateway: --max-body must be a whole number of bytes >= 1024, got 10\n'],
      [['nginx', 'missing-file.ts', '--upstream', 'h:1'], 'toolwright gateway: no such file: missing-file.ts\n'],
    ];
    for (const [args, stderr] of cases) {
      const run = gateway(...args);
      assert.deepEqual({ code: run.code, stderr: run.stderr, stdout: run.stdout }, { code: 2, stderr, stdout: '' }, args.join(' '));
    }
    const kind = gateway('haproxy', SCALEOUT_TOOLS);
    assert.equal(kind.code, 2);
    assert.match(kind.stderr, /^toolwright gateway: expected "nginx <target>", got "haproxy .*"\n\nUsage: toolwright gateway nginx/);
  });

  it('refuses a tool name that is not a valid MCP name rather than writing it into nginx.conf', () => {
    assert.throws(() => nginxConfig({ tools: [{ name: 'x"; evil', device: true }], pool: ['h:1'] }), { name: 'GatewayConfigError', message: 'tool name "x\\"; evil" is not a valid MCP tool name; refusing to write it into nginx.conf' });
  });
});
