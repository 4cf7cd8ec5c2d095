import type { JsonObject } from './json-rpc.js';

/** `Implementation`: identifies a server or client. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** `Icon` for tools and implementations. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** `ToolAnnotations`: hints only, never enforced. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A JSON Schema object as it appears on the wire. */
export type JsonSchemaObject = { [key: string]: unknown };

/** `Tool`: exactly what `tools/list` shows for one tool. */
export interface ToolDescriptor {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

/** Content annotations. */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent { type: 'text'; text: string; annotations?: ContentAnnotations; _meta?: JsonObject }
export interface ImageContent { type: 'image'; data: string; mimeType: string; annotations?: ContentAnnotations; _meta?: JsonObject }
export interface AudioContent { type: 'audio'; data: string; mimeType: string; annotations?: ContentAnnotations; _meta?: JsonObject }
export interface ResourceLink {
  type: 'resource_link';
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
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };
export interface EmbeddedResource { type: 'resource'; resource: ResourceContents; annotations?: ContentAnnotations; _meta?: JsonObject }

/** `ContentBlock`: one item of a tool result's `content`. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** `CallToolResult` with `resultType: "complete"`. */
export interface CallToolResult {
  resultType: 'complete';
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}

/** One MRTR input request (no jsonrpc/id). */
export type InputRequest =
  | { method: 'elicitation/create'; params: JsonObject }
  | { method: 'sampling/createMessage'; params: JsonObject }
  | { method: 'roots/list'; params?: JsonObject };

/** `InputRequiredResult`: an MRTR interim result of `tools/call`, `prompts/get` or `resources/read`. */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: JsonObject;
}

/** `ClientCapabilities` as declared per request in `_meta`. */
export interface ClientCapabilities {
  experimental?: JsonObject;
  roots?: JsonObject;
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  extensions?: JsonObject;
  [key: string]: unknown;
}

/** `ServerCapabilities` as advertised by `server/discover`. */
export interface ServerCapabilities {
  experimental?: JsonObject;
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  extensions?: JsonObject;
}
