// The one runner of the robot's safety steps: steps run in SAFETY_STAGES order as the tool's own
// Toolwright middleware; a refusal is answered by the runner and the tool body never starts; every
// call, refused or not, ends with one audit record of its stage trail.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type McpServer } from 'toolwright';
import { AuditLog, readAuditLog } from '../../server/audit-log.js';
import { ApprovalGate } from '../../server/approval-gate.js';
import { RobotController } from '../../server/robot-controller.js';
import type { RobotDeps } from '../../server/robot-deps.js';
import { MotionRateLimits } from '../../server/motion-rate-limits.js';
import { AuditChainGate } from '../../server/audit-chain-gate.js';
import { robotTool } from '../../server/robot-tool.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';

const SCHEMA = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false } as const;

describe('the safety-step runner', () => {
  const auditPath = join(mkdtempSync(join(tmpdir(), 'robot-runner-')), 'audit.jsonl');
  let deps: RobotDeps;
  let server: McpServer;
  let url: string;
  const ran: number[] = [];
  let closeListener: () => Promise<void>;

  before(async () => {
    const driver = new SimArmDriver({ pacer: steppedPacer(20) });
    const controller = new RobotController({ model: driver.model, driver });
    const audit = new AuditLog(auditPath);
    deps = { model: controller.model, controller, approval: new ApprovalGate('off'), audit, auditChain: new AuditChainGate(audit), rateLimits: new MotionRateLimits() };
    const probe = robotTool(deps, {
      name: 'probe',
      description: 'Test tool: refuses n above 10 at stage finite_and_range, n equal to 7 at stage collision.',
      inputSchema: SCHEMA,
      steps: (s) => [
        s.rule('finite_and_range', ({ args }) => (args.n > 10 ? { stage: 'finite_and_range', code: 'too_big', message: `n is ${args.n}` } : 'n is small')),
        s.rule('collision', ({ args }) => (args.n === 7 ? { stage: 'collision', code: 'seven', message: 'n is 7' } : undefined)),
      ],
      run({ args, record }) {
        ran.push(args.n);
        record.trail.pass('execute', `ran with ${args.n}`);
        record.summary = { n: args.n };
        return { content: [{ type: 'text', text: `ran ${args.n}` }] };
      },
    });
    server = createServer({ name: 'runner-test', version: '0.0.0', tools: [probe] });
    const listener = await server.listen({ port: 0, host: '127.0.0.1' });
    url = String(listener.url);
    closeListener = () => listener.close();
  });

  after(async () => {
    await closeListener();
    await server.close();
    deps.audit.close();
  });

  let id = 1;
  async function call(n: number): Promise<{ isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> }> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'probe' },
      body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'probe', arguments: { n }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      signal: AbortSignal.timeout(30_000),
    });
    return ((await response.json()) as { result: { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> } }).result;
  }

  function lastRecord(): Record<string, unknown> {
    return readAuditLog(auditPath).records.filter((r) => r.type === 'tool_call').at(-1)!;
  }

  it('a passing call runs the body once, after every step, and is audited with its trail', async () => {
    const result = await call(3);
    assert.equal(result.content[0]!.text, 'ran 3');
    assert.deepEqual(ran, [3]);
    const record = lastRecord();
    assert.deepEqual(record.stages, [
      { stage: 'shape', outcome: 'pass' },
      { stage: 'finite_and_range', outcome: 'pass', detail: 'n is small' },
      { stage: 'collision', outcome: 'pass' },
      { stage: 'execute', outcome: 'pass', detail: 'ran with 3' },
      { stage: 'audit', outcome: 'pass' },
    ]);
    assert.equal(record.outcome, 'ok');
    assert.deepEqual(record.result, { n: 3 });
  });

  it('a refusal at an early stage stops the call: later steps and the body never run', async () => {
    const result = await call(11);
    assert.equal(result.isError, true);
    assert.equal(result.content[0]!.text, 'Refused at stage finite_and_range (too_big): n is 11. Nothing was executed.');
    assert.deepEqual(result.structuredContent, { refused: { stage: 'finite_and_range', code: 'too_big', message: 'n is 11' } });
    assert.deepEqual(ran, [3]);
    const record = lastRecord();
    assert.deepEqual((record.stages as Array<{ stage: string; outcome: string }>).map((s) => `${s.stage}:${s.outcome}`), ['shape:pass', 'finite_and_range:refused', 'audit:pass']);
    assert.equal(record.outcome, 'error');
  });

  it('a refusal at a later stage records the stages that passed before it', async () => {
    const result = await call(7);
    assert.deepEqual(result.structuredContent, { refused: { stage: 'collision', code: 'seven', message: 'n is 7' } });
    assert.deepEqual(ran, [3]);
    assert.deepEqual((lastRecord().stages as Array<{ stage: string; outcome: string }>).map((s) => `${s.stage}:${s.outcome}`), ['shape:pass', 'finite_and_range:pass', 'collision:refused', 'audit:pass']);
  });

  it('steps listed out of SAFETY_STAGES order are refused when the tool is defined', () => {
    assert.throws(
      () => robotTool(deps, {
        name: 'disordered',
        inputSchema: SCHEMA,
        steps: (s) => [s.rule('collision', () => undefined), s.rule('state_gate', () => undefined)],
        run: () => 'never',
      }),
      { name: 'TypeError', message: 'robot tool disordered: step of stage state_gate is out of order (stages run in SAFETY_STAGES order)' },
    );
  });
});
