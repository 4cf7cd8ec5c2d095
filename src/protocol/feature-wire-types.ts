import type { JsonObject } from './json-rpc.js';
import type { ContentAnnotations, ContentBlock, Icon, ResourceContents } from './wire-types.js';

/** `Resource`: one entry of `resources/list` (defined with the content types it shares fields with). */
export type { ResourceDescriptor } from './wire-types.js';

/** `ResourceTemplate`: one entry of `resources/templates/list` (RFC 6570 `uriTemplate`). */
export interface ResourceTemplateDescriptor {
  /** RFC 6570 URI template, e.g. `file:///logs/{date}`. */
  uriTemplate: string;
  /** Programmatic name. */
  name: string;
  /** Display name for people. */
  title?: string;
  /** What the matching resources hold. */
  description?: string;
  /** MIME type shared by every matching resource, if any. */
  mimeType?: string;
  /** Icons a client may show for it. */
  icons?: Icon[];
  /** Audience, priority, modification time. */
  annotations?: ContentAnnotations;
  /** Extension metadata. */
  _meta?: JsonObject;
}

/** `ReadResourceResult` with `resultType: "complete"`; cacheable (`ttlMs`, `cacheScope`). */
export interface ReadResourceResult {
  /** Always `"complete"` for a finished read. */
  resultType: 'complete';
  /** The contents: usually one entry, several for a resource with parts. */
  contents: ResourceContents[];
  /** How long a client may reuse the result, in milliseconds. */
  ttlMs: number;
  /** Whether a cached copy may be shared between callers (`public`) or not (`private`). */
  cacheScope: 'public' | 'private';
  /** Metadata, including `io.modelcontextprotocol/serverInfo`. */
  _meta?: JsonObject;
}

/** `PromptArgument`: a named string argument of a prompt. */
export interface PromptArgumentDescriptor {
  /** Argument name as passed in `prompts/get` `arguments`. */
  name: string;
  /** Display name for people. */
  title?: string;
  /** What the argument means. */
  description?: string;
  /** `prompts/get` without it is refused with -32602. */
  required?: boolean;
}

/** `Prompt`: one entry of `prompts/list`. */
export interface PromptDescriptor {
  /** Unique name used by `prompts/get`. */
  name: string;
  /** Display name for people. */
  title?: string;
  /** What the prompt is for. */
  description?: string;
  /** The arguments it accepts. */
  arguments?: PromptArgumentDescriptor[];
  /** Icons a client may show for it. */
  icons?: Icon[];
  /** Extension metadata. */
  _meta?: JsonObject;
}

/** `PromptMessage`: one message of a `GetPromptResult`. */
export interface PromptMessage {
  /** Who speaks the message. */
  role: 'user' | 'assistant';
  /** One content block. */
  content: ContentBlock;
}

/** `GetPromptResult` with `resultType: "complete"`. */
export interface GetPromptResult {
  /** Always `"complete"` for a finished get. */
  resultType: 'complete';
  /** Description of the rendered prompt. */
  description?: string;
  /** The rendered messages, in order. */
  messages: PromptMessage[];
  /** Metadata, including `io.modelcontextprotocol/serverInfo`. */
  _meta?: JsonObject;
}

/** `CompleteResult` of `completion/complete`. */
export interface CompleteResult {
  /** Always `"complete"`. */
  resultType: 'complete';
  /** At most 100 suggested values; `total` and `hasMore` tell whether more exist. */
  completion: { values: string[]; total?: number; hasMore?: boolean };
  /** Metadata, including `io.modelcontextprotocol/serverInfo`. */
  _meta?: JsonObject;
}

/** `SubscriptionFilter`: what a `subscriptions/listen` stream opts in to. */
export interface SubscriptionFilter {
  /** Send `notifications/tools/list_changed`. */
  toolsListChanged?: boolean;
  /** Send `notifications/prompts/list_changed`. */
  promptsListChanged?: boolean;
  /** Send `notifications/resources/list_changed`. */
  resourcesListChanged?: boolean;
  /** URIs whose `notifications/resources/updated` to send. */
  resourceSubscriptions?: string[];
  /** Tasks (`io.modelcontextprotocol/tasks`) whose `notifications/tasks` to send; only the caller's own tasks are delivered. */
  taskIds?: string[];
}

/** `ElicitResult`: the client's answer to an `elicitation/create` input request. */
export interface ElicitResult {
  /** What the user did: submitted, declined, or dismissed the request. */
  action: 'accept' | 'decline' | 'cancel';
  /** The submitted values (with `accept`), shaped by the request's `requestedSchema`. */
  content?: { [key: string]: unknown };
  /** Extension metadata. */
  _meta?: JsonObject;
}

/** `CreateMessageResult`: the client's answer to a `sampling/createMessage` input request. */
export interface CreateMessageResult {
  /** Role of the generated message (normally `assistant`). */
  role: 'user' | 'assistant';
  /** The generated content block(s). */
  content: unknown;
  /** Name of the model that generated it. */
  model: string;
  /** Why generation stopped, e.g. `endTurn` or `maxTokens`. */
  stopReason?: string;
  /** Extension metadata. */
  _meta?: JsonObject;
}

/** `ListRootsResult`: the client's answer to a `roots/list` input request. */
export interface ListRootsResult {
  /** The client's roots (`file://` URIs), each optionally named. */
  roots: { uri: string; name?: string; _meta?: JsonObject }[];
  /** Extension metadata. */
  _meta?: JsonObject;
}
