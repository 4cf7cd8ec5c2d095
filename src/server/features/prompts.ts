/**
 * Prompts (`prompts/list`, `prompts/get`). A prompt's `get` may ask the client for input first
 * (MRTR) through `ctx.inputs`, exactly like a tool.
 */
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ClientCapabilities, Icon } from '../../protocol/wire-types.js';
import type { PromptArgumentDescriptor, PromptDescriptor, PromptMessage } from '../../protocol/feature-wire-types.js';
import type { Completer } from './completion.js';
import type { InputFlow } from '../approvals/input-flow.js';
import type { AuthInfo, InputRequiredInit } from '../contract/tool-types.js';
import type { VisibleTo } from '../contract/visibility.js';
import { checkScopes } from '../auth/scope-refusal.js';

/** What a prompt's `get` receives. */
export interface PromptContext {
  readonly signal: AbortSignal;
  readonly clientCapabilities: ClientCapabilities;
  readonly auth: AuthInfo | undefined;
  readonly requestMeta: Readonly<JsonObject>;
  readonly promptName: string;
  /** Multi round-trip input (elicitation, sampling, roots). */
  readonly inputs: InputFlow;
}

/** What `get` returns: the messages (optionally with a description), or an input request. */
export type PromptGetValue = readonly PromptMessage[] | { description?: string; messages: readonly PromptMessage[]; _meta?: JsonObject } | InputRequiredInit;

/** One argument of a prompt; all prompt arguments are strings. */
export interface PromptArgumentInit extends PromptArgumentDescriptor {
  /** Suggestions for `completion/complete`. */
  complete?: Completer;
}

/** Options of {@link definePrompt}. */
export interface PromptDefinitionInit {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: JsonObject;
  arguments?: readonly PromptArgumentInit[];
  /** Who sees this prompt (see `VisibleTo`): where false it is absent from `prompts/list` and answers as unknown. */
  visibleTo?: VisibleTo;
  /**
   * Scopes the caller must hold (all of them; scope tokens, no spaces) for `prompts/get` and for
   * `completion/complete` of its arguments. Requires the server's `authorize` option, as tools'
   * `scopes` do (without one `createServer` refuses the server, on stdio too). Unlike `visibleTo`,
   * the prompt stays listed for everyone; a caller lacking a scope gets the tools' step-up answer:
   * -31403 / HTTP 403 `insufficient_scope` naming the scopes (the `WWW-Authenticate` challenge on
   * HTTP only), checked before the arguments, and neither `get` nor a completer runs.
   */
  scopes?: readonly string[];
  /** Builds the messages for the given arguments (every required one is present; unknown ones were refused). */
  get(args: Readonly<Record<string, string>>, ctx: PromptContext): PromptGetValue | Promise<PromptGetValue>;
}

/** A defined prompt. */
export interface Prompt {
  readonly kind: 'prompt';
  readonly name: string;
  readonly descriptor: Readonly<PromptDescriptor>;
  readonly required: readonly string[];
  readonly complete: Readonly<Record<string, Completer>>;
  readonly visibleTo: VisibleTo | undefined;
  /** `definePrompt({ scopes })` (empty: none required). */
  readonly scopes: readonly string[];
  /** The definition's `get` handler, as given. */
  readonly get: PromptDefinitionInit['get'];
}

/**
 * Defines a prompt. Required arguments are enforced before `get` runs (missing ones are -32602).
 * @example
 * ```ts
 * import { definePrompt, text } from 'toolwright';
 *
 * const greet = definePrompt({
 *   name: 'greet', description: 'Greets someone',
 *   arguments: [{ name: 'who', required: true }],
 *   get: ({ who }) => [{ role: 'user', content: text(`Say hello to ${who}`) }],
 * });
 * ```
 */
export function definePrompt(init: PromptDefinitionInit): Prompt {
  if (typeof init.name !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(init.name)) {
    throw new TypeError(`definePrompt: name must be 1 to 128 of [A-Za-z0-9_.-], got ${JSON.stringify(init.name)}`);
  }
  if (typeof init.get !== 'function') throw new TypeError(`definePrompt(${init.name}): get must be a function`);
  if (init.visibleTo !== undefined && typeof init.visibleTo !== 'function') throw new TypeError(`definePrompt(${init.name}): visibleTo must be a function (viewer) => boolean`);
  const scopes = checkScopes(`definePrompt(${init.name})`, init.scopes);
  const descriptor: PromptDescriptor = { name: init.name };
  if (init.title !== undefined) descriptor.title = init.title;
  if (init.description !== undefined) descriptor.description = init.description;
  const complete: Record<string, Completer> = {};
  const required: string[] = [];
  if (init.arguments !== undefined) {
    const seen = new Set<string>();
    descriptor.arguments = init.arguments.map((argument) => {
      if (typeof argument.name !== 'string' || argument.name === '') throw new TypeError(`definePrompt(${init.name}): every argument needs a name`);
      if (seen.has(argument.name)) throw new TypeError(`definePrompt(${init.name}): argument ${argument.name} is declared twice`);
      seen.add(argument.name);
      if (argument.complete !== undefined) complete[argument.name] = argument.complete;
      if (argument.required === true) required.push(argument.name);
      const out: PromptArgumentDescriptor = { name: argument.name };
      if (argument.title !== undefined) out.title = argument.title;
      if (argument.description !== undefined) out.description = argument.description;
      if (argument.required !== undefined) out.required = argument.required;
      return out;
    });
  }
  if (init.icons !== undefined) descriptor.icons = init.icons;
  if (init._meta !== undefined) descriptor._meta = init._meta;
  return Object.freeze({
    kind: 'prompt',
    name: init.name,
    descriptor: Object.freeze(descriptor),
    required: Object.freeze(required),
    complete: Object.freeze(complete),
    visibleTo: init.visibleTo,
    scopes,
    get: init.get,
  });
}
