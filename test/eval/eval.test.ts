import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run as runEval } from '../../src/cli/commands/eval.js';
import { mapTools } from '../../src/host/index.js';
import type { ToolDescriptor } from '../../src/host/index.js';
import { authErrorReply, startProviderTestDouble, textReply, toolCallReply } from './provider-test-double.js';
import type { DoubleApi, DoubleReply, RecordedRequest } from './provider-test-double.js';
import { repoPath } from '../support/repo-paths.js';

// Every figure here comes from the loopback provider TEST DOUBLE answering as scripted; the tests
// check that the client side sends the right request and counts the replies right, nothing more.

const TOOLS = repoPath('test/fixtures/eval/tools.json');
const CASES = repoPath('test/fixtures/eval/cases.yaml');
const tools = (JSON.parse(readFileSync(TOOLS, 'utf8')) as { tools: ToolDescriptor[] }).tools;

interface Run { code: number; stdout: string; stderr: string }
async function evalCli(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEval(args, { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) }, env });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

function userText(r: RecordedRequest): string {
  const body = r.body as { messages?: Array<{ content: string }>; contents?: Array<{ parts: Array<{ text: string }> }> };
  if (r.api === 'gemini') return body.contents![0]!.parts[0]!.text;
  return body.messages!.at(-1)!.content;
}

/** A scripted "model": good = what the regression set expects (with one argument as a string that needs repair). */
function scripted(good: boolean) {
  return (r: RecordedRequest): DoubleReply => {
    const text = userText(r);
    if (text.startsWith('Pick up')) return toolCallReply(r.api, 'grasp_object', { object_id: 'cup-1', force_n: '10' });
    if (text.includes('idle')) return good ? toolCallReply(r.api, 'get_arm_status', {}) : toolCallReply(r.api, 'grasp_object', {});
    return textReply(r.api, 'You are welcome.');
  };
}

const PROVIDERS: Array<{ model: string; api: DoubleApi; profile: 'openai-chat' | 'anthropic' | 'gemini'; base: (url: string) => string; key: string }> = [
  { model: 'openai:double-model', api: 'openai-chat', profile: 'openai-chat', base: (u) => `${u}/v1`, key: 'OPENAI_API_KEY' },
  { model: 'anthropic:double-model', api: 'anthropic', profile: 'anthropic', base: (u) => u, key: 'ANTHROPIC_API_KEY' },
  { model: 'gemini:double-model', api: 'gemini', profile: 'gemini', base: (u) => u, key: 'GEMINI_API_KEY' },
];

interface JsonRun { totals: Record<string, unknown> & { rates: Record<string, number | null> }; cases: Array<{ id: string; passed: number; trials: Array<{ calledTool: string | null; repairs: string[]; notes: string[] }> }> }

for (const p of PROVIDERS) {
  test(`${p.api}: the request carries the catalog exactly as the host profile lowers it, the context and the key`, async () => {
    const double = await startProviderTestDouble(scripted(true));
    try {
      const result = await evalCli([CASES, '--target', TOOLS, '--model', p.model, '--base-url', p.base(double.url), '--format', 'json'], { [p.key]: 'sk-double' });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(double.requests.length, 3);
      const expected = mapTools(tools, { provider: p.profile }).request.tools;
      for (const r of double.requests) assert.deepEqual(r.body.tools, expected);
      const first = double.requests[0]!;
      if (p.api === 'openai-chat') {
        assert.equal(first.headers.authorization, 'Bearer sk-double');
        assert.deepEqual((first.body.messages as unknown[])[0], { role: 'system', content: 'The table holds cup-1 (fragile) and block-2.' });
        assert.equal(first.body.model, 'double-model');
      } else if (p.api === 'anthropic') {
        assert.equal(first.headers['x-api-key'], 'sk-double');
        assert.equal(first.headers['anthropic-version'], '2023-06-01');
        assert.equal(first.body.system, 'The table holds cup-1 (fragile) and block-2.');
      } else {
        assert.equal(first.path, '/v1beta/models/double-model:generateContent');
        assert.equal(first.headers['x-goog-api-key'], 'sk-double');
        assert.deepEqual(first.body.systemInstruction, { parts: [{ text: 'The table holds cup-1 (fragile) and block-2.' }] });
      }
    } finally {
      await double.close();
    }
  });

  test(`${p.api}: scores tool choice, validity as sent and after repair, repairs needed, per case and in total`, async () => {
    const double = await startProviderTestDouble(scripted(false));
    try {
      const result = await evalCli([CASES, '--target', TOOLS, '--model', p.model, '--base-url', p.base(double.url), '--format', 'json']);
      assert.equal(result.code, 1, result.stderr);
      const report = JSON.parse(result.stdout) as JsonRun;
      const { rates, ...counts } = report.totals;
      assert.deepEqual(counts, { trials: 3, errors: 0, scored: 3, toolChoiceCorrect: 2, calls: 2, validBefore: 0, validAfter: 1, repaired: 1, passed: 2 });
      assert.deepEqual(rates, { toolChoice: 2 / 3, validAsSent: 0, validRepaired: 0.5, repairsNeeded: 0.5, passed: 2 / 3 });
      const grasp = report.cases.find((c) => c.id === 'grasp-cup')!;
      assert.deepEqual(grasp.trials[0]!.repairs, ['numeric-string']);
      const status = report.cases.find((c) => c.id === 'arm-status')!;
      assert.equal(status.passed, 0);
      assert.ok(status.trials[0]!.notes.some((n) => n === 'called grasp_object; expected get_arm_status'), status.trials[0]!.notes.join('; '));
    } finally {
      await double.close();
    }
  });
}

test('table output: per case and total, with the notes of failed trials; --trials repeats each case', async () => {
  const double = await startProviderTestDouble(scripted(false));
  try {
    const result = await evalCli([CASES, '--target', TOOLS, '--model', 'ollama:double', '--base-url', `${double.url}/v1`, '--trials', '2']);
    assert.equal(result.code, 1);
    assert.equal(double.requests.length, 6);
    assert.ok(result.stdout.startsWith(`toolwright eval: ollama:double, catalog ${TOOLS}\n`), result.stdout);
    assert.match(result.stdout, /\ngrasp-cup +grasp_object +2 +0 +100% +0% +100% +2\/2 +100%\n/);
    assert.match(result.stdout, /\narm-status +get_arm_status +2 +0 +0% +0% +0% +0\/2 +0%\n/);
    assert.match(result.stdout, /\nTOTAL +6 +0 +67% +0% +50% +2\/4 +67%\n/);
    assert.match(result.stdout, /arm-status #1: called grasp_object; expected get_arm_status/);
  } finally {
    await double.close();
  }
});

test('--compare runs the same cases on the old catalog and shows the difference per case', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-eval-'));
  const double = await startProviderTestDouble(scripted(true));
  try {
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ tools: [tools[0]] })); // no get_arm_status yet
    const result = await evalCli([CASES, '--target', TOOLS, '--compare', old, '--model', 'vllm:double', '--base-url', `${double.url}/v1`]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(double.requests.length, 6);
    assert.match(result.stdout, /\narm-status +0% +100% +0% +100% +\+100\n/);
    assert.match(result.stdout, /\nTOTAL +67% +100% +67% +100% +\+33\n/);
    const json = JSON.parse((await evalCli([CASES, '--target', TOOLS, '--compare', old, '--model', 'vllm:double', '--base-url', `${double.url}/v1`, '--format', 'json'])).stdout) as { before: JsonRun; after: JsonRun };
    assert.equal(json.before.cases.find((c) => c.id === 'arm-status')!.trials[0]!.notes[0], 'called "get_arm_status", which was not offered');
  } finally {
    await double.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--interview: the model\'s reading of each tool beside its description, with unit, range and required mismatches', async () => {
  const double = await startProviderTestDouble((r) => {
    const tool = JSON.parse(userText(r)) as { function?: { name: string } };
    const name = tool.function?.name;
    if (name === 'grasp_object') return textReply(r.api, 'Here you go:\n```json\n{"when": "When the user wants something picked up.", "task": "Grab the mug", "arguments": {"force_n": "15N"}}\n```');
    return textReply(r.api, '{"when": "Before moving, to check the arm is idle.", "task": "Is the arm busy?", "arguments": {}}');
  });
  try {
    const result = await evalCli(['--interview', '--target', TOOLS, '--model', 'lmstudio:double', '--base-url', `${double.url}/v1`]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(double.requests.length, 2);
    assert.equal(double.requests[0]!.body.tools, undefined, 'the interview asks about the tool, it does not offer it');
    assert.match(result.stdout, /grasp_object\n {2}description: Close the gripper/);
    assert.match(result.stdout, /model, when: When the user wants something picked up\./);
    assert.match(result.stdout, /✗ unit: "force_n" was given as "15N", but it is a bare number \(Grip force in newtons, 5 to 30\.\)/);
    assert.match(result.stdout, /✗ required: /);
    assert.match(result.stdout, /get_arm_status\n[\s\S]*✓ the arguments fit the schema/);
    assert.match(result.stdout, /1 of 2 tools with mismatches\./);
  } finally {
    await double.close();
  }
});

test('HTTP errors are counted as errors, never scored; a model that cannot be reached at all exits 2 with no figures', async () => {
  const double = await startProviderTestDouble((r) => authErrorReply(r.api));
  try {
    const result = await evalCli([CASES, '--target', TOOLS, '--model', 'anthropic:double', '--base-url', double.url, '--format', 'json']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as JsonRun;
    assert.equal(report.totals.errors, 3);
    assert.equal(report.totals.scored, 0);
    assert.deepEqual(report.totals.rates, { toolChoice: null, validAsSent: null, validRepaired: null, repairsNeeded: null, passed: null });
    assert.match(JSON.stringify(report.cases[0]!.trials[0]), /anthropic answered HTTP 401: invalid x-api-key/);
  } finally {
    await double.close();
  }
  const closed = await startProviderTestDouble(() => ({ body: {} }));
  const url = closed.url;
  await closed.close();
  const unreachable = await evalCli([CASES, '--target', TOOLS, '--model', 'openai:double', '--base-url', `${url}/v1`]);
  assert.equal(unreachable.code, 2);
  assert.match(unreachable.stderr, /cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: ECONNREFUSED \(no request reached the model, so there is nothing to score\)/);
  assert.equal(unreachable.stdout, '');
});

test('a reply that is not the documented shape is an error for that trial', async () => {
  const double = await startProviderTestDouble(() => ({ body: { choices: [] } }));
  try {
    const result = await evalCli([CASES, '--target', TOOLS, '--model', 'openai:double', '--base-url', `${double.url}/v1`, '--format', 'json']);
    const report = JSON.parse(result.stdout) as JsonRun;
    assert.equal(report.totals.errors, 3);
    assert.match(JSON.stringify(report.cases[0]!.trials[0]), /no choices\[0\]\.message in the Chat Completions reply/);
  } finally {
    await double.close();
  }
});

test('bad usage and bad case files exit 2 with a specific message and call no model', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-eval-usage-'));
  try {
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const base = ['--target', TOOLS, '--base-url', 'http://127.0.0.1:9/v1'];
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [[CASES, '--target', TOOLS], /missing --model <provider:model>/],
      [[CASES, ...base, '--model', 'gpt-4'], /--model must be provider:model/],
      [[CASES, ...base, '--model', 'acme:x'], /unknown provider "acme"/],
      [[CASES, '--target', TOOLS, '--model', 'openai:gpt-4.1'], /openai needs an API key: set OPENAI_API_KEY, or point --base-url/],
      [[CASES, ...base, '--model', 'openai:x', '--trials', '0'], /--trials must be an integer from 1 to 100, got "0"/],
      [[CASES, ...base, '--model', 'openai:x', '--format', 'csv'], /--format must be table or json/],
      [[CASES, '--model', 'openai:x'], /give the server with --target <server> or --stdio/],
      [[...base, '--model', 'openai:x'], /missing <cases\.yaml\|cases\.json>/],
      [['--interview', CASES, ...base, '--model', 'openai:x'], /--interview takes no case file/],
      [[CASES, '--target', TOOLS, '--model', 'openai:x', '--base-url', 'ftp://x'], /--base-url must be an http\(s\) URL/],
      [[file('c.txt', ''), ...base, '--model', 'openai:x'], /the case file must be \.yaml, \.yml or \.json/],
      [[file('bad.yaml', 'cases: [ {'), ...base, '--model', 'openai:x'], /bad\.yaml is not valid YAML/],
      [[file('empty.yaml', 'cases: []'), ...base, '--model', 'openai:x'], /empty\.yaml: no cases/],
      [[file('key.yaml', 'cases:\n  - request: hi\n    expect: { tool: none }\n    prompt: x'), ...base, '--model', 'openai:x'], /cases\[0\]\.prompt is not allowed/],
      [[file('dup.yaml', 'cases:\n  - { id: a, request: hi, expect: { tool: none } }\n  - { id: a, request: ho, expect: { tool: none } }'), ...base, '--model', 'openai:x'], /cases\[1\]\.id "a" is used twice/],
      [[file('none.json', '{"cases":[{"request":"hi","expect":{"tool":null,"arguments":{"a":1}}}]}'), ...base, '--model', 'openai:x'], /"no tool" cannot have argument expectations/],
      [[file('schema.json', '{"cases":[{"request":"hi","expect":{"tool":"t","argumentsSchema":{"type":"nope"}}}]}'), ...base, '--model', 'openai:x'], /expect\.argumentsSchema is not a valid schema/],
      [[CASES, '--target', 'missing.json', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'openai:x'], /no such file: missing\.json/],
    ];
    for (const [args, message] of cases) {
      const result = await evalCli(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stdout}`);
      assert.match(result.stderr, message, args.join(' '));
      assert.equal(result.stdout, '');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a progress bar is drawn on a terminal stderr (and nothing when stderr is not a terminal)', async () => {
  const double = await startProviderTestDouble(scripted(true));
  try {
    const err: string[] = [];
    const code = await runEval([CASES, '--target', TOOLS, '--model', 'ollama:double', '--base-url', `${double.url}/v1`], { stdout: { write: () => true }, stderr: { write: (t: string) => err.push(t), isTTY: true }, env: {} });
    assert.equal(code, 0);
    assert.deepEqual(err, [
      '\r[########----------------] 1/3 grasp-cup',
      '\r[################--------] 2/3 arm-status',
      '\r[########################] 3/3 thanks\n',
    ]);
  } finally {
    await double.close();
  }
});
