import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapTools } from '../../src/host/index.js';
import { FIXTURES, loadCorpus } from './corpus.js';
import { REPO_ROOT } from '../support/repo-paths.js';
import { runCli } from '../support/run-cli.js';

const CORPUS = join(FIXTURES, 'corpus.json');

/** The same as {@link preview}, without blocking, so independent runs overlap. */
async function previewAsync(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runCli(['preview', ...args]);
  return { status: code, stdout, stderr };
}

function preview(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'preview', ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('preview --json prints the exact provider request, loss reports and token counts', () => {
  const r = preview(CORPUS, '--provider', 'openai-responses', '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { provider: string; request: unknown; tools: Array<{ mcpName: string; tokens: number; loss: unknown[] }>; totalTokens: number; failures: unknown[] };
  const expected = mapTools(loadCorpus(), { provider: 'openai-responses' });
  assert.equal(out.provider, 'openai-responses');
  assert.deepEqual(out.request, expected.request);
  assert.deepEqual(out.tools.map((t) => [t.mcpName, t.tokens]), expected.tools.map((t) => [t.mcpName, t.tokens]));
  assert.equal(out.totalTokens, expected.totalTokens);
  assert.deepEqual(out.tools[0]!.loss, expected.tools[0]!.loss);
  assert.deepEqual(out.failures, []);
});

test('preview (pretty) shows the JSON, what changed, strict fallbacks, tokens per tool and in total', () => {
  const r = preview(CORPUS, '--provider', 'openai-chat', '--tool', 'set_speed', '--tool', 'label_items', '--prefix', 'plant');
  assert.equal(r.status, 0, r.stderr);
  const expected = mapTools(loadCorpus().filter((t) => t.name === 'set_speed' || t.name === 'label_items'), { provider: 'openai-chat', serverPrefix: 'plant' });
  assert.match(r.stdout, /^Provider: OpenAI Chat Completions \(openai-chat\)/);
  assert.match(r.stdout, new RegExp(`■ plant__set_speed \\(MCP name: set_speed\\)  ${expected.tools[0]!.tokens} tokens, strict`));
  assert.match(r.stdout, /moved-into-description +\/properties\/line minLength/);
  assert.match(r.stdout, /added +\(root\) required: optional "speed", "verbose" made required and nullable/);
  assert.match(r.stdout, /strict mode not possible, sent non-strict because:\n +- \/properties\/labels additionalProperties: a map/);
  assert.match(r.stdout, new RegExp(`Total: 2 tool\\(s\\), ${expected.totalTokens} tokens\\n$`));
  assert.ok(r.stdout.includes(JSON.stringify(expected.tools[0]!.json, null, 2).split('\n').map((l) => `    ${l}`).join('\n')), 'the exact JSON is printed');
});

test('preview exits 1 and names the tool when a tool cannot be mapped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-preview-'));
  try {
    const file = join(dir, 'tools.json');
    writeFileSync(file, JSON.stringify({ tools: [loadCorpus()[0], { name: 'remote', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } } }] }));
    const r = preview(file, '--provider', 'gemini');
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /✗ remote: NOT SENT \(unmappable_tool\) tool "remote" cannot be sent to gemini: \/properties\/a \$ref: external reference https:\/\/example.com\/s.json is never fetched/);
    assert.match(r.stdout, /Total: 1 tool\(s\), \d+ tokens; 1 tool\(s\) could not be mapped/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('preview bad usage: unknown or missing provider, bad --strict, missing target, unknown tool, unreadable target', async () => {
  const cases: Array<[string[], RegExp]> = [
    [[CORPUS, '--provider', 'llama'], /unknown provider "llama"; use one of: openai-chat, openai-responses, anthropic, gemini, gemini-legacy/],
    [[CORPUS], /missing --provider/],
    [[CORPUS, '--provider', 'openai-chat', '--strict', 'maybe'], /--strict must be auto, true or false \(got "maybe"\)/],
    [['--provider', 'anthropic'], /missing <target>/],
    [[CORPUS, '--provider', 'anthropic', '--tool', 'nope'], /no tool named "nope"/],
    [['/nonexistent/tools.json', '--provider', 'anthropic'], /toolwright preview: .*nonexistent/],
    [[CORPUS, '--provider', 'gemini-legacy', '--strict', 'true'], /gemini-legacy has no strict mode/],
  ];
  const results = await Promise.all(cases.map(([args]) => previewAsync(...args)));
  for (const [i, [args, message]] of cases.entries()) {
    const r = results[i]!;
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});
