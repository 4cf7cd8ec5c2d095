import { META } from '../../protocol/constants.js';
import { declaredClient } from '../../protocol/client-info.js';
import type { DeclaredClient } from '../../protocol/client-info.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { ClientCapabilities } from '../../protocol/wire-types.js';
import { createInputFlow } from '../approvals/input-flow.js';
import type { InputFlow } from '../approvals/input-flow.js';
import { LOG_LEVELS } from '../features/log-levels.js';
import { defaultApprovalDigest } from '../approvals/approvals.js';
import { approverOf, callerMayApprove } from '../approvals/approver-trust.js';
import type { ToolApprovals } from '../approvals/operator-approvals.js';
import type { PipelineEnv } from './pipeline-env.js';
import type { Redeemed } from './stage.js';
import type { AuthInfo, LogLevel, ToolContext } from '../contract/tool-types.js';

/**
 * The handler context of one tools/call. A class rather than a literal of closures: one allocation
 * per call with the methods on the prototype (this is on the hot path of every tools/call).
 */
export class CallContext implements ToolContext {
  readonly #s: Redeemed;
  readonly #env: PipelineEnv;
  #last = -Infinity;
  #inputs: InputFlow | undefined;
  #approvals: ToolApprovals | undefined;
  #client: DeclaredClient | undefined | null = null;
  readonly clientCapabilities: ClientCapabilities;
  readonly auth: AuthInfo | undefined;
  readonly requestMeta: Readonly<JsonObject>;
  readonly requestId: JsonRpcId;
  readonly toolName: string;
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly requestState: string | undefined;
  readonly transport: 'http' | 'stdio' | 'console';
  readonly operator: string | undefined;

  constructor(s: Redeemed, env: PipelineEnv) {
    this.#s = s;
    this.#env = env;
    this.clientCapabilities = s.capabilities;
    this.auth = s.auth;
    this.requestMeta = s.meta;
    this.requestId = s.id;
    this.toolName = s.tool.name;
    this.inputResponses = s.inputResponses;
    this.requestState = s.requestState;
    this.transport = s.message.transport;
    this.operator = s.message.operator;
  }

  get signal(): AbortSignal {
    return this.#s.message.signal;
  }

  get connectionLost(): AbortSignal {
    return this.#s.message.connectionSignal ?? this.#s.message.signal;
  }

  /** Read from `_meta` when first asked: most calls never look, and it is one object per call otherwise. */
  get client(): DeclaredClient | undefined {
    if (this.#client === null) this.#client = declaredClient(this.#s.meta[META.clientInfo]);
    return this.#client;
  }

  get scopes(): readonly string[] {
    return this.auth?.scopes ?? [];
  }

  get inputs(): InputFlow {
    const s = this.#s;
    return (this.#inputs ??= createInputFlow({
      signer: this.#env.signer,
      call: `tools/call ${this.toolName}`,
      args: s.args,
      caller: s.auth?.subject ?? '',
      client: s.auth?.clientId ?? '',
      capabilities: s.capabilities,
      inputResponses: s.inputResponses,
      requestState: s.requestState,
      ttlMs: this.#env.approvalTtlMs,
      epoch: () => this.#env.store.epoch(),
      // Read when asked: the `claim` stage sets it after the approval hook made this flow.
      redeemed: () => s.redeemed,
      claimAhead: true,
      approver: approverOf(this.#env.approverTrust, s.message.transport, s.auth, `tools/call ${this.toolName}`),
    }));
  }

  get approvals(): ToolApprovals {
    const s = this.#s;
    const call = `tools/call ${this.toolName}`;
    const trust = this.#env.approverTrust;
    return (this.#approvals ??= {
      ...this.#env.approvals.forCall({
        call,
        tool: this.toolName,
        defaultDigest: defaultApprovalDigest(call, s.args),
        subject: s.auth?.subject ?? '',
        client: this.client,
        signal: s.message.signal,
        progress: (progress, total, text) => this.progress(progress, total, text),
        log: (level, text) => this.log(level, text),
      }),
      callerMayApprove: callerMayApprove(trust, s.message.transport, s.auth),
      approverScope: trust.scope,
    });
  }

  progress(progress: number, total?: number, text?: string): void {
    const s = this.#s;
    const token = s.meta[META.progressToken];
    if (!(typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token)))) return;
    if (s.finished || s.message.isAborted() || !(progress > this.#last)) return;
    this.#last = progress;
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (text !== undefined) params.message = text;
    s.message.notify({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  log(level: LogLevel, data: unknown): void {
    const s = this.#s;
    if (s.logLevel < 0 || LOG_LEVELS.indexOf(level) < s.logLevel || s.finished || s.message.isAborted()) return;
    const notification: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: this.toolName, data } };
    s.message.notify(notification);
  }
}
