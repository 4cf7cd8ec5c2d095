/**
 * Test support: a robot-arm server on real loopback HTTP with simulated time run as fast as the CPU
 * allows, and a minimal MCP 2026-07-28 caller built on fetch (every call bounded in time). Every
 * reply body is checked against the official 2026-07-28 MCP JSON schema before a test sees it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRobotServer, type RobotServer, type RobotServerOptions } from '../../server/create-robot-server.js';
import { createSimulatedRobotServer, type SimulatedRobotServerOptions } from '../../wiring/simulated-robot-server.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import type { ArmDriver } from '../../driver/arm-driver.js';
import type { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { DEFAULT_APPROVER_SCOPE, type McpServer } from 'toolwright';

type ListenOptions = NonNullable<Parameters<McpServer['listen']>[0]>;
import { assertServerMessage } from '../../../../test/fixtures/servers/wire-schema.js';

export interface CallOptions {
  capabilities?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  signal?: AbortSignal;
  /** Extra top-level params (hostile tests). */
  params?: Record<string, unknown>;
}

export interface RpcReply {
  status: number;
  body: {
    id?: unknown;
    result?: {
      resultType?: string;
      content?: Array<{ type: string; text?: string }>;
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
      inputRequests?: Record<string, { method: string; params: { message: string; requestedSchema: unknown } }>;
      requestState?: string;
      tools?: Array<{ name: string; annotations?: Record<string, unknown> }>;
      /** resources/list */
      resources?: Array<{ uri: string; name: string; mimeType?: string }>;
      /** resources/read */
      contents?: Array<{ uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }>;
    };
    error?: { code: number; message: string; data?: unknown };
  };
}

export interface Harness<D extends ArmDriver = SimArmDriver> {
  /** The server, on its default simulated driver (`robot.driver.sim` is the simulation, for assertions) or the one given. */
  readonly robot: RobotServer<D>;
  readonly url: string;
  readonly auditPath: string;
  /** The listener's port. */
  readonly port: number;
  call(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<RpcReply>;
  rpc(method: string, params: Record<string, unknown>, options?: { capabilities?: Record<string, unknown>; name?: string; signal?: AbortSignal; rewrite?: (json: string) => string }): Promise<RpcReply>;
  close(): Promise<void>;
}

let nextId = 1;

/** Things the listener serves beside MCP (e.g. the operator console), built once the robot exists. */
export type HarnessMounts = (robot: RobotServer<SimArmDriver>) => Promise<NonNullable<ListenOptions['mounts']>>;

/** What every harness server gets unless the test says otherwise. */
function harnessDefaults(): { auditPath: string; options: Omit<RobotServerOptions, 'driver'> } {
  const auditPath = join(mkdtempSync(join(tmpdir(), 'robot-test-')), 'audit.jsonl');
  // Every caller holds the approver scope unless a test brings its own authorizer: its elicitation answers approve.
  return { auditPath, options: { motionRatePerSecond: 100, motionBurst: 100, auditLogPath: auditPath, authorize: () => ({ scopes: [DEFAULT_APPROVER_SCOPE] }) } };
}

/** A harness on the simulated cell (wiring/simulated-robot-server.ts), its time stepped as fast as the CPU allows. */
export async function startHarness(options: SimulatedRobotServerOptions = {}, mounts?: HarnessMounts): Promise<Harness> {
  const defaults = harnessDefaults();
  const robot = createSimulatedRobotServer({ pacer: steppedPacer(20), ...defaults.options, ...options });
  return serve(robot, defaults.auditPath, mounts === undefined ? undefined : () => mounts(robot));
}

/**
 * A harness on a driver the test made (a `RemoteArmDriver` to a robot-sim process, a simulated arm of
 * another preset): the server's model is the driver's arm (`model`). Closing the harness closes the driver.
 */
export async function startHarnessOn<D extends ArmDriver>(driver: D, options: Omit<RobotServerOptions, 'driver'> = {}): Promise<Harness<D>> {
  const defaults = harnessDefaults();
  return serve(createRobotServer({ ...defaults.options, ...options, driver }), defaults.auditPath);
}

async function serve<D extends ArmDriver>(robot: RobotServer<D>, auditPath: string, mounts?: () => Promise<NonNullable<ListenOptions['mounts']>>): Promise<Harness<D>> {
  const listener = await robot.server.listen({ port: 0, host: '127.0.0.1', ...(mounts !== undefined ? { mounts: await mounts() } : {}) });
  const url = String(listener.url);
  const rpc: Harness<D>['rpc'] = async (method, params, opts = {}) => {
    const id = nextId++;
    const body = {
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': opts.capabilities ?? {} } },
    };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
    };
    if (opts.name !== undefined) headers['mcp-name'] = opts.name;
    const signal = opts.signal === undefined ? AbortSignal.timeout(60_000) : AbortSignal.any([opts.signal, AbortSignal.timeout(60_000)]);
    const json = JSON.stringify(body);
    const response = await fetch(url, { method: 'POST', headers, body: opts.rewrite === undefined ? json : opts.rewrite(json), signal });
    const text = await response.text();
    if (text === '') return { status: response.status, body: {} };
    const reply: unknown = JSON.parse(text);
    assertServerMessage(reply, method);
    return { status: response.status, body: reply as RpcReply['body'] };
  };
  return {
    robot,
    url,
    auditPath,
    port: listener.port,
    rpc,
    call(name, args, opts = {}) {
      const params: Record<string, unknown> = { name, arguments: args, ...(opts.params ?? {}) };
      if (opts.inputResponses !== undefined) params.inputResponses = opts.inputResponses;
      if (opts.requestState !== undefined) params.requestState = opts.requestState;
      return rpc('tools/call', params, { ...(opts.capabilities !== undefined ? { capabilities: opts.capabilities } : {}), name, ...(opts.signal !== undefined ? { signal: opts.signal } : {}) });
    },
    async close() {
      await listener.close();
      await robot.close();
    },
  };
}

/** The first text block of a tool result. */
export function textOf(reply: RpcReply): string {
  return reply.body.result?.content?.[0]?.text ?? '';
}

/** `structuredContent.refused` of a refusal, or undefined. */
export function refusalOf(reply: RpcReply): { stage: string; code: string; message: string } | undefined {
  return reply.body.result?.structuredContent?.refused as { stage: string; code: string; message: string } | undefined;
}

export const ELICITATION = { elicitation: { form: {} } };
