import type { JsonObject } from './json-rpc.js';
import type { ContentAnnotations, ContentBlock, Icon, ResourceContents } from './wire-types.js';

/** `Resource`: one entry of `resources/list`. */
export interface ResourceDescriptor {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}

/** `ResourceTemplate`: one entry of `resources/templates/list` (RFC 6570 `uriTemplate`). */
export interface ResourceTemplateDescriptor {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}

/** `ReadResourceResult` with `resultType: "complete"`; cacheable (`ttlMs`, `cacheScope`). */
export interface ReadResourceResult {
  resultType: 'complete';
  contents: ResourceContents[];
  ttlMs: number;
  cacheScope: 'public' | 'private';
  _meta?: JsonObject;
}

/** `PromptArgument`: a named string argument of a prompt. */
export interface PromptArgumentDescriptor {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** `Prompt`: one entry of `prompts/list`. */
export interface PromptDescriptor {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgumentDescriptor[];
  icons?: Icon[];
  _meta?: JsonObject;
}

/** `PromptMessage`: one message of a `GetPromptResult`. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** `GetPromptResult` with `resultType: "complete"`. */
export interface GetPromptResult {
  resultType: 'complete';
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}

/** `CompleteResult` of `completion/complete`. */
export interface CompleteResult {
  resultType: 'complete';
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: JsonObject;
}

/** `SubscriptionFilter`: what a `subscriptions/listen` stream opts in to. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** `ElicitResult`: the client's answer to an `elicitation/create` input request. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: { [key: string]: unknown };
  _meta?: JsonObject;
}

/** `CreateMessageResult`: the client's answer to a `sampling/createMessage` input request. */
export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: unknown;
  model: string;
  stopReason?: string;
  _meta?: JsonObject;
}

/** `ListRootsResult`: the client's answer to a `roots/list` input request. */
export interface ListRootsResult {
  roots: { uri: string; name?: string; _meta?: JsonObject }[];
  _meta?: JsonObject;
}
