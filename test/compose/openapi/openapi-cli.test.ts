/** `toolwright openapi <document>`: the import's names, problems and lint findings, and its exit codes. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { run } from '../../../src/cli/commands/openapi.js';
import { petstoreDocument } from './petstore-api.js';

const dir = mkdtempSync(join(tmpdir(), 'toolwright-openapi-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } });
  return { code, stdout, stderr };
}

describe('toolwright openapi', () => {
  it('prints each tool with its operation, the problems and the lint report; exit 0 when nothing is skipped', async () => {
    const file = join(dir, 'pets.json');
    writeFileSync(file, JSON.stringify(petstoreDocument()));
    const { code, stdout, stderr } = await cli([file, '--provider', 'openai-chat,anthropic']);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.match(stdout, new RegExp(`^8 tools from ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\n  pets_get-pet {29}GET /pets/\\{petId\\}\n`));
    assert.match(stdout, /\n  info {5}missing-operation-id {3}GET \/names: no operationId; the tool is named "get_names" from the method and path\n/);
  });

  it('--json gives operations, problems and lint; a skipped operation exits 1', async () => {
    const file = join(dir, 'cookie.json');
    writeFileSync(file, JSON.stringify({ openapi: '3.1.0', info: { title: 'c', version: '1' }, paths: { '/c': { get: { operationId: 'c', parameters: [{ name: 's', in: 'cookie', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } } } }));
    const { code, stdout } = await cli([file, '--json']);
    assert.equal(code, 1);
    const report = JSON.parse(stdout) as { operations: unknown[]; problems: { code: string }[]; lint: { toolCount: number } };
    assert.deepEqual(report.operations, []);
    assert.deepEqual(report.problems.map((p) => p.code), ['cookie-parameter']);
    assert.equal(report.lint.toolCount, 0);
  });

  it('a document that cannot be imported exits 2 with its error code; no document is bad usage', async () => {
    const file = join(dir, 'swagger.json');
    writeFileSync(file, JSON.stringify({ swagger: '2.0' }));
    assert.deepEqual(await cli([file]), { code: 2, stdout: '', stderr: 'toolwright openapi: invalid_document: not an OpenAPI 3.0 or 3.1 document (openapi: null)\n' });
    const none = await cli([]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^toolwright openapi: give exactly one document\n\nUsage: toolwright openapi <document.json>/);
  });
});
