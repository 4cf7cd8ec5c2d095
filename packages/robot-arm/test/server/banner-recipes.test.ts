/**
 * `npm start` prints how to connect; every recipe must work exactly as printed, with the default
 * options of the software it names. The server runs as a real process on loopback; each recipe is
 * read from its banner and run as a child process: the MCP Inspector 2.12.0 CLI through `npx`
 * (run in test-deps/third-party, where it is pinned and installed, so npx fetches nothing), both `toolwright call` lines through `sh`, and the desktop stdio
 * config started the way desktop hosts start it (its command and args, spoken to by the official
 * SDK v1 client, which opens with `initialize`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { testDepsDir, THIRD_PARTY } from '../../../../scripts/test-deps.mjs';
import { robotToken } from '../../../../test/support/robot-token.js';
import { robotTokenPath } from '../../server/mcp-access.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const MAIN = join(ROOT, 'packages', 'robot-arm', 'main.ts');

interface Run { code: number | null; stdout: string; stderr: string }

/** Runs one printed shell line (from the repository root unless `cwd` says otherwise), bounded in time. */
function runLine(line: string, timeoutMs = 120_000, cwd = ROOT): Promise<Run> {
  return new Promise((done, reject) => {
    const child = spawn('sh', ['-c', line], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${line} did not finish within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('npm start: every printed connection recipe works as printed', () => {
  let server: ReturnType<typeof spawn>;
  let banner = '';
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robot-banner-'));
    server = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--audit-log', join(dir, 'audit.jsonl'), '--rate', '50'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    banner = await new Promise<string>((done, reject) => {
      let text = '';
      server.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        // The desktop config is the banner's last block; it ends with its closing brace.
        if (/"mcpServers"[\s\S]*\n {4}}\n/.test(text)) done(text);
      });
      server.once('exit', (code) => reject(new Error(`robot exited early (${code}): ${text}`)));
    });
  });
  after(() => {
    server.kill('SIGTERM');
  });

  it('prints the three recipes for a dual-era server, the HTTP ones reading the token file (the token itself is never printed)', () => {
    const header = ` --header "Authorization: Bearer $(cat ${robotTokenPath()})"`;
    assert.match(banner, /protocol: {3}2026-07-28 and 2025 clients \(2025-11-25, 2025-06-18, 2025-03-26\)/);
    assert.ok(banner.includes(`  /mcp:       bearer token required; token file ${robotTokenPath()} (0600, `), banner);
    assert.match(banner, /MCP Inspector: {3}npx @modelcontextprotocol\/inspector --cli http:\/\/127\.0\.0\.1:\d+\/mcp --method tools\/list --header /);
    assert.match(banner, /toolwright call: node dist\/cli\/main\.js call /);
    for (const line of banner.split('\n').filter((l) => / (npx|node) .* (call|--cli) http/.test(l))) assert.ok(line.endsWith(header), line);
    assert.match(banner, /Desktop client \(stdio, its own process: no token needed\), add to its MCP config:/);
    assert.ok(!banner.includes(robotToken()), 'the banner must not show the token');
  });

  it('MCP Inspector CLI (2.12.0, default options) lists the nine tools', async () => {
    const line = /MCP Inspector: +(npx .+ --method tools\/list .+)\n/.exec(banner)?.[1];
    assert.ok(line);
    const run = await runLine(line, 120_000, testDepsDir(THIRD_PARTY));
    assert.equal(run.code, 0, run.stderr);
    const listed = JSON.parse(run.stdout) as { tools: { name: string }[] };
    assert.equal(listed.tools.length, 9);
    assert.ok(listed.tools.some((t) => t.name === 'move_arm_to_pose'));
  });

  it('both toolwright call lines succeed (status, then a dry-run plan that moves nothing)', async () => {
    const lines = [...banner.matchAll(/^(?: +toolwright call:)? +(node dist\/cli\/main\.js call .+)$/gm)].map((m) => m[1] as string);
    assert.equal(lines.length, 2, banner);
    const status = await runLine(lines[0] as string);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /idle/);
    const dryRun = await runLine(lines[1] as string);
    assert.equal(dryRun.code, 0, dryRun.stderr);
    assert.match(dryRun.stdout, /dry[ _-]?run/i);
  });

  it('the desktop stdio config starts a server a 2025 desktop client can use', async () => {
    const json = banner.slice(banner.indexOf('{', banner.indexOf('add to its MCP config:')));
    const config = JSON.parse(json) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const entry = config.mcpServers['robot-arm'];
    assert.ok(entry);
    assert.ok(entry.args.some((a) => a.endsWith('audit-stdio.jsonl')), 'the stdio process writes its own audit log');
    // Named, so a host's own environment (the SDK passes only HOME, PATH, ...) picks the same key and a head of its own.
    assert.equal(entry.args[entry.args.indexOf('--audit-key') + 1], join(process.env.TOOLWRIGHT_STATE_DIR ?? '', 'audit.key'));
    assert.match(entry.args[entry.args.indexOf('--audit-head') + 1] ?? '', /audit-heads\/audit-stdio\.jsonl-[0-9a-f]{16}\.head$/);
    const client = new Client({ name: 'desktop-host', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, stderr: 'pipe' }));
    try {
      assert.equal(client.getServerVersion()?.name, 'toolwright-robot-arm');
      const { tools } = await client.listTools();
      assert.equal(tools.length, 9);
      const status = (await client.callTool({ name: 'get_device_status', arguments: {} })) as { isError?: boolean; content: { text?: string }[] };
      assert.equal(status.isError, undefined);
      assert.match(status.content[0]?.text ?? '', /idle/);
    } finally {
      await client.close();
    }
  });
});
