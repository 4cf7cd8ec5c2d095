import type { JsonObject, JsonRpcId, JsonValue } from '../../protocol/json-rpc.js';
import type { InboundMessage } from '../../transport/message-dispatcher.js';
import type { Store } from '../store/store.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import type { AuthInfo, ToolContext } from '../contract/tool-types.js';
import type { ToolCall } from './middleware.js';

/** The {@link ToolCall} of one request: a live view of the pipeline state, plus notes and reports. */
/**
 * What a view reads of the call's pipeline state: the tool is known; the context appears once
 * `shape` passed (the `context` stage). The stage state (stages/stage.ts) has these fields; they are
 * named here so that middleware does not depend on the stages that run it.
 */
export interface WrappedState {
  readonly message: InboundMessage;
  readonly tool: RegisteredTool;
  args: Record<string, unknown>;
  readonly ctx?: ToolContext | undefined;
  readonly auth: AuthInfo | undefined;
  readonly id: JsonRpcId;
  readonly meta: JsonObject;
  readonly task: { readonly taskId: string } | undefined;
}

export class CallView implements ToolCall {
  readonly #s: WrappedState;
  readonly tool: ToolCall['tool'];
  readonly store: Store;
  /** `_meta` notes for the final result, by key. */
  notes: Record<string, JsonValue> | undefined;
  /** Stage-event details, by middleware name. */
  reports: Map<string, string[]> | undefined;
  /** The middleware currently running (reports go to it). */
  current = '';

  constructor(s: WrappedState, store: Store) {
    this.#s = s;
    this.tool = { name: s.tool.name, descriptor: s.tool.descriptor, fixedArguments: s.tool.tool.fixedArguments };
    this.store = store;
  }

  get arguments(): Record<string, unknown> {
    return this.#s.args;
  }

  set arguments(value: Record<string, unknown>) {
    if (this.#s.ctx !== undefined) throw new TypeError(`middleware: the arguments of ${this.tool.name} were already validated; change them before next() in a middleware at "arguments"`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('middleware: arguments must be an object');
    this.#s.args = value;
  }

  get ctx(): ToolContext | undefined {
    return this.#s.ctx;
  }

  get auth(): AuthInfo | undefined {
    return this.#s.auth;
  }

  get subject(): string {
    return this.#s.auth?.subject ?? '';
  }

  get requestId(): JsonRpcId {
    return this.#s.id;
  }

  get taskId(): string | undefined {
    return this.#s.task?.taskId;
  }

  get transport(): 'http' | 'stdio' | 'console' {
    return this.#s.message.transport;
  }

  get operator(): string | undefined {
    return this.#s.message.operator;
  }

  get requestMeta(): Readonly<JsonObject> {
    return this.#s.meta;
  }

  note(key: string, value: JsonValue): void {
    (this.notes ??= {})[key] = value;
  }

  report(detail: string): void {
    const reports = (this.reports ??= new Map());
    const lines = reports.get(this.current);
    if (lines === undefined) reports.set(this.current, [detail]);
    else lines.push(detail);
  }
}
