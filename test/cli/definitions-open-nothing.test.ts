/**
 * `toolwright lint` and `preview` load a server module only to read its tool definitions: the
 * module's middleware must not open anything then. An audit log named in the module is neither
 * created nor locked, and a running server holding that log does not stop lint from reading it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { auditLog } from '../../src/index.js';
import { repoPath, tsxArgs } from '../support/repo-paths.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-defs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const logPath = join(dir, 'logs', 'calls.jsonl');
const modulePath = join(dir, 'server.ts');
writeFileSync(modulePath, `import { auditLog, createServer, defineTool, rateLimit } from ${JSON.stringify(pathToFileURL(repoPath('src/index.ts')).href)};
const ping = defineTool({
  name: 'ping_host',
  description: 'Check that a host answers. Use before a longer job on that host.',
  inputSchema: { type: 'object', properties: { host: { type: 'string', description: 'Host name.' } }, required: ['host'], additionalProperties: false },
  run: ({ host }) => 'ok ' + host,
});
export default createServer({ name: 'defs', version: '1.0.0', tools: [ping], use: [rateLimit({ capacity: 5, refillPerSecond: 1 }), auditLog({ path: ${JSON.stringify(logPath)} })] });
`);

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, tsxArgs('src/cli/main.ts', ...args), { cwd: dir, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe('reading definitions opens no middleware resources', () => {
  it('lint and preview of a module with an audit log create no log, no lock and no directory', async () => {
    const lint = await cli(['lint', modulePath, '--format', 'json']);
    assert.equal(lint.code, 0, lint.stderr);
    assert.equal((JSON.parse(lint.stdout) as { summary: { tools: number } }).summary.tools, 1);
    const preview = await cli(['preview', modulePath, '--provider', 'anthropic']);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, /ping_host/);
    assert.equal(existsSync(join(dir, 'logs')), false, 'nothing was opened');
    assert.deepEqual(readdirSync(dir).sort(), ['server.ts']);
  });

  it('lint reads the module while a running server holds its audit log', async () => {
    const running = auditLog({ path: logPath });
    running.open();
    try {
      const lint = await cli(['lint', modulePath, '--format', 'json']);
      assert.equal(lint.code, 0, lint.stderr);
      assert.doesNotMatch(lint.stderr, /in use/);
    } finally {
      running.close();
    }
  });
});
