/**
 * `npm start` prints how to connect; every recipe must work exactly as printed, with the default
 * options of the software it names. The server runs as a real process on loopback; each recipe is
 * read from its banner and run as a child process: the MCP Inspector 2.12.0 CLI through `npx`
 * (run in test-deps/third-party, where it is pinned and installed, so npx fetches nothing), both
 * `toolwright call` lines through `sh`, the desktop config started the way desktop hosts start it
 * (its command and args: the bridge to this server, spoken to by the official SDK v1 client, which
 * opens with `initialize`), and the `toolwright install` line, with `--config` added so that it
 * writes a file of the test's and not the user's Claude Desktop config.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { testDepsDir, THIRD_PARTY } from '../../../../scripts/test-deps.mjs';
import { robotToken } from '../../../../test/support/robot-token.js';
import { robotBridgeTokenPath, robotTokenPath } from '../../server/mcp-access.js';

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
    assert.match(banner, /Desktop host: {4}runs the bridge to this server \(the arm the console shows\); its motions wait for the operator at the console\. Write the entry with\n/);
    assert.ok(!banner.includes(robotToken()), 'the banner must not show the token');
    assert.ok(!banner.includes(readFileSync(robotBridgeTokenPath(), 'utf8').trim()), 'nor the bridge\'s');
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

  it('the desktop config starts the bridge to this server, which a 2025 desktop client uses; the install line writes the same entry', async () => {
    const json = banner.slice(banner.indexOf('{', banner.indexOf('add to its MCP config:')));
    const config = JSON.parse(json) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const entry = config.mcpServers['robot-arm'];
    assert.ok(entry);
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(banner)?.[1];
    assert.deepEqual(entry.args, [join(ROOT, 'dist', 'cli', 'main.js'), 'bridge', url, '--token-file', robotBridgeTokenPath()]);
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
    const install = /^ +(node dist\/cli\/main\.js install claude-desktop .+)$/m.exec(banner)?.[1];
    assert.ok(install, banner);
    const file = join(mkdtempSync(join(tmpdir(), 'robot-banner-install-')), 'claude_desktop_config.json');
    const run = await runLine(`${install} --config ${file}`);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), config);
  });
});
