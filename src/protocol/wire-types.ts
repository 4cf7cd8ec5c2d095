import type { JsonObject, JsonValue } from './json-rpc.js';

/** `Implementation`: identifies a server or client. */
export interface Implementation {
  /** Programmatic name, e.g. `"robot-arm"`. */
  name: string;
  /** Version string, e.g. `"1.2.0"`. */
  version: string;
  /** Display name for people. */
  title?: string;
  /** One-line human-readable description. */
  description?: string;
  /** URL of the implementation's website. */
  websiteUrl?: string;
  /** Icons a client may show for it. */
  icons?: Icon[];
}

/** `Icon` for tools and implementations. */
export type Icon = {
  /** URI of the image (`https:` or `data:`). */
  src: string;
  /** MIME type of the image, when the URI does not say. */
  mimeType?: string;
  /** Sizes the image suits, e.g. `["48x48"]` or `["any"]` for scalable formats. */
  sizes?: string[];
  /** The UI theme the icon is designed for. */
  theme?: 'light' | 'dark';
};

/** `ToolAnnotations`: hints only, never enforced. */
export interface ToolAnnotations {
  /** Display name for people (the tool's own `title` takes precedence). */
  title?: string;
  /** The tool does not change its environment. */
  readOnlyHint?: boolean;
  /** When not read-only: the tool may destroy or overwrite (spec default `true`). */
  destructiveHint?: boolean;
  /** When not read-only: calling again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool reaches an open world (the internet, the physical world) rather than a closed one. */
  openWorldHint?: boolean;
}

/** A JSON Schema object as it appears on the wire. */
export type JsonSchemaObject = { [key: string]: unknown };

/** `Tool`: exactly what `tools/list` shows for one tool. */
export interface ToolDescriptor {
  /** Unique name the model calls: 1-128 characters of `A-Z a-z 0-9 _ . -`. */
  name: string;
  /** Display name for people. */
  title?: string;
  /** What the tool does and when to use it; the model reads this. */
  description?: string;
  /** JSON Schema (2020-12 unless `$schema` says otherwise) of the arguments; root `type: "object"`. */
  inputSchema: JsonSchemaObject;
  /** JSON Schema the result's `structuredContent` conforms to, when the tool returns structured output. */
  outputSchema?: JsonSchemaObject;
  /** Behaviour hints for hosts. */
  annotations?: ToolAnnotations;
  /** Icons a client may show for the tool. */
  icons?: Icon[];
  /** Extension metadata. */
  _meta?: JsonObject;
}

/** Content annotations. */
export type ContentAnnotations = {
  /** Who the content is meant for. */
  audience?: ('user' | 'assistant')[];
  /** Importance from 0 (optional) to 1 (required). */
  priority?: number;
  /** ISO 8601 time the content was last modified. */
  lastModified?: string;
};

/** Text content. */
export type TextContent = {
  /** Discriminator. */
  type: 'text';
  /** The text. */
  text: string;
  /** Audience, priority, modification time. */
  annotations?: ContentAnnotations;
  /** Extension metadata. */
  _meta?: JsonObject;
};

/** An image, base64-encoded. */
export type ImageContent = {
  /** Discriminator. */
  type: 'image';
  /** Base64 image bytes. */
  data: string;
  /** MIME type, e.g. `image/png`. */
  mimeType: string;
  /** Audience, priority, modification time. */
  annotations?: ContentAnnotations;
  /** Extension metadata. */
  _meta?: JsonObject;
};

/** Audio, base64-encoded. */
export type AudioContent = {
  /** Discriminator. */
  type: 'audio';
  /** Base64 audio bytes. */
  data: string;
  /** MIME type, e.g. `audio/wav`. */
  mimeType: string;
  /** Audience, priority, modification time. */
  annotations?: ContentAnnotations;
  /** Extension metadata. */
  _meta?: JsonObject;
};

/** `Resource`: the description of a resource, as listed by `resources/list` and linked from content. */
export type ResourceDescriptor = {
  /** URI the client reads it by. */
  uri: string;
  /** Programmatic name. */
  name: string;
  /** Display name for people. */
  title?: string;
  /** What the resource holds. */
  description?: string;
  /** MIME type of its contents, if known. */
  mimeType?: string;
  /** Size in bytes, if known. */
  size?: number;
  /** Icons a client may show for it. */
  icons?: Icon[];
  /** Audience, priority, modification time. */
  annotations?: ContentAnnotations;
  /** Extension metadata. */
  _meta?: JsonObject;
};

/** A link to a resource the client may read (not its contents). */
export type ResourceLink = ResourceDescriptor & {
  /** Discriminator. */
  type: 'resource_link';
};

/** The contents of one resource: `text`, or `blob` (base64) for binary data. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };

/** A resource's contents embedded in a result. */
export type EmbeddedResource = {
  /** Discriminator. */
  type: 'resource';
  /** The contents, text or base64 blob. */
  resource: ResourceContents;
  /** Audience, priority, modification time. */
  annotations?: ContentAnnotations;
  /** Extension metadata. */
  _meta?: JsonObject;
};

/** `ContentBlock`: one item of a tool result's `content`. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** `CallToolResult` with `resultType: "complete"`. */
export type CallToolResult = {
  /** Always `"complete"` for a finished call (see {@link InputRequiredResult} for the other kind). */
  resultType: 'complete';
  /** What the model reads: text, images, audio, resource links or embedded resources. */
  content: ContentBlock[];
  /** Machine-readable result; conforms to the tool's `outputSchema` when it has one. */
  structuredContent?: JsonValue;
  /** `true` when the tool failed; the content then explains the failure to the model. */
  isError?: boolean;
  /** Metadata, including `io.modelcontextprotocol/serverInfo`. */
  _meta?: JsonObject;
};

/** One MRTR input request (no jsonrpc/id). */
export type InputRequest =
  | { method: 'elicitation/create'; params: JsonObject }
  | { method: 'sampling/createMessage'; params: JsonObject }
  | { method: 'roots/list'; params?: JsonObject };

/** `InputRequiredResult`: an MRTR interim result of `tools/call`, `prompts/get` or `resources/read`. */
export type InputRequiredResult = {
  /** Always `"input_required"`: the client answers the requests and sends the request again. */
  resultType: 'input_required';
  /** What the server needs, by key; the retry carries the answers under the same keys. */
  inputRequests?: Record<string, InputRequest>;
  /** Opaque server state the client echoes back unchanged on the retry. */
  requestState?: string;
  /** Metadata, including `io.modelcontextprotocol/serverInfo`. */
  _meta?: JsonObject;
};

/** `ClientCapabilities` as declared per request in `_meta`. */
export interface ClientCapabilities {
  /** Non-standard capabilities. */
  experimental?: JsonObject;
  /** The client answers `roots/list` input requests. */
  roots?: JsonObject;
  /** The client answers `sampling/createMessage` input requests. */
  sampling?: { context?: JsonObject; tools?: JsonObject };
  /** The client answers `elicitation/create` input requests (form and/or URL mode). */
  elicitation?: { form?: JsonObject; url?: JsonObject };
  /** Capabilities of protocol extensions, by extension id. */
  extensions?: JsonObject;
  [key: string]: unknown;
}

/** `ServerCapabilities` as advertised by `server/discover`. */
export interface ServerCapabilities {
  /** Non-standard capabilities. */
  experimental?: JsonObject;
  /** The server sends log notifications. */
  logging?: JsonObject;
  /** The server answers `completion/complete`. */
  completions?: JsonObject;
  /** The server offers prompts; `listChanged`: it notifies when the list changes. */
  prompts?: { listChanged?: boolean };
  /** The server offers resources; `subscribe`: per-resource updates, `listChanged`: list change notifications. */
  resources?: { subscribe?: boolean; listChanged?: boolean };
  /** The server offers tools; `listChanged`: it notifies when the list changes. */
  tools?: { listChanged?: boolean };
  /** Capabilities of protocol extensions, by extension id. */
  extensions?: JsonObject;
}
