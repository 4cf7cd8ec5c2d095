import type { JsonObject } from '../../protocol/json-rpc.js';
import { isObjectSchema, toJsonSchema } from './convert-schema.js';
import type { LeftRef } from './convert-schema.js';
import type { ImportProblem } from './import-error.js';

/** Where one argument of the tool goes in the HTTP request. */
export interface ArgumentPlace {
  /** The property name in the tool's `inputSchema`. */
  argument: string;
  in: 'path' | 'query' | 'header' | 'body-property' | 'body';
  /** The name in the request (parameter name, or body property name; unused for `body`). */
  name: string;
  /** A query array is sent as repeated `name=value` pairs (OpenAPI's default `form` + `explode`); false: one comma-joined value. */
  explode?: boolean;
}

/** The folded input of one operation: its `inputSchema` and how each argument maps back to the request. */
export interface OperationInput {
  inputSchema: JsonObject;
  places: ArgumentPlace[];
  /** The request body is JSON (sent with `content-type: application/json`). */
  hasBody: boolean;
}

interface Parameter { name: string; in: string; required?: boolean; description?: string; schema?: unknown; content?: Record<string, { schema?: unknown }>; deprecated?: boolean; style?: string; explode?: boolean }

/** Headers OpenAPI says a parameter may not define (3.x: "SHALL be ignored"), and the ones our credentials set. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * Folds path, query and header parameters and the JSON request body into one object schema.
 * Naming: a parameter keeps its name; a name used in more than one location (compared
 * case-insensitively, as headers are) becomes `<in>_<name>` in every location. A JSON body whose
 * schema is an object with properties is flattened beside the parameters when none of its
 * property names is already taken; otherwise (a clash, an array or scalar body) it is one
 * argument named `body`. Returns the problems instead when the operation cannot be represented.
 */
export function foldOperationInput(
  operation: string, rawParameters: readonly Parameter[], requestBody: { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined,
  version: '3.0' | '3.1', credentialHeaders: ReadonlySet<string>, problems: ImportProblem[], leftRefs: LeftRef[],
): OperationInput | undefined {
  const properties: Record<string, JsonObject> = {};
  const required: string[] = [];
  const places: ArgumentPlace[] = [];
  let refused = false;
  const problem = (code: ImportProblem['code'], severity: ImportProblem['severity'], message: string): void => {
    problems.push({ operation, code, severity, message });
    if (severity === 'skipped') refused = true;
  };
  const parameters: Parameter[] = [];
  for (const parameter of rawParameters) {
    if (parameter.in === 'cookie') {
      problem('cookie-parameter', parameter.required === true ? 'skipped' : 'warning', `cookie parameter "${parameter.name}" is not supported${parameter.required === true ? ' and is required' : ' and was left out'}`);
    } else if (parameter.in === 'header' && (IGNORED_HEADERS.has(parameter.name.toLowerCase()) || credentialHeaders.has(parameter.name.toLowerCase()))) {
      problem('ignored-header', 'info', `header parameter "${parameter.name}" is set by the import (content type or upstream credentials), never by the caller`);
    } else if (['path', 'query', 'header'].includes(parameter.in)) {
      parameters.push(parameter);
    } else {
      problem('unsupported-parameter', 'skipped', `parameter "${parameter.name}" has unknown location "${String(parameter.in)}"`);
    }
  }
  const locations = new Map<string, Set<string>>();
  for (const parameter of parameters) {
    const key = parameter.name.toLowerCase();
    locations.set(key, (locations.get(key) ?? new Set()).add(parameter.in));
  }
  for (const parameter of parameters) {
    const argument = (locations.get(parameter.name.toLowerCase())?.size ?? 0) > 1 ? `${parameter.in}_${parameter.name}` : parameter.name;
    if (argument in properties) {
      problem('parameter-clash', 'skipped', `parameter "${parameter.name}" (${parameter.in}) clashes with another argument named "${argument}"`);
      continue;
    }
    let source = parameter.schema;
    if (source === undefined && parameter.content !== undefined) source = Object.values(parameter.content)[0]?.schema;
    const converted = toJsonSchema(source ?? {}, version);
    leftRefs.push(...converted.leftRefs.map((left) => ({ ...left, pointer: `/parameters/${parameter.in}/${parameter.name}${left.pointer}` })));
    const schema = converted.schema;
    if (schema.type === 'object' || parameter.style === 'deepObject') {
      problem('unsupported-parameter', 'skipped', `${parameter.in} parameter "${parameter.name}" is an object (style ${parameter.style ?? 'default'}), whose serialisation is not supported`);
      continue;
    }
    const defaultStyle = parameter.in === 'query' ? 'form' : 'simple';
    if (parameter.style !== undefined && parameter.style !== defaultStyle) {
      problem('unsupported-parameter', 'skipped', `${parameter.in} parameter "${parameter.name}" has style "${parameter.style}"; only "${defaultStyle}" is supported`);
      continue;
    }
    if (parameter.description !== undefined && schema.description === undefined) schema.description = parameter.description;
    if (parameter.deprecated === true) schema.deprecated = true;
    properties[argument] = schema;
    if (parameter.required === true || parameter.in === 'path') required.push(argument);
    const place: ArgumentPlace = { argument, in: parameter.in as ArgumentPlace['in'], name: parameter.name };
    if (parameter.in === 'query') place.explode = parameter.explode ?? true;
    places.push(place);
  }
  let hasBody = false;
  if (requestBody?.content !== undefined) {
    const mediaType = Object.keys(requestBody.content).find((type) => /^application\/([\w.+-]+\+)?json(;|$)/i.test(type));
    if (mediaType === undefined) {
      const types = Object.keys(requestBody.content).join(', ');
      problem('unsupported-body', requestBody.required === true ? 'skipped' : 'warning', `request body media types (${types}) are not JSON; only JSON bodies are sent${requestBody.required === true ? '' : ', so the body was left out'}`);
    } else {
      hasBody = true;
      const converted = toJsonSchema(requestBody.content[mediaType]?.schema ?? {}, version);
      leftRefs.push(...converted.leftRefs.map((left) => ({ ...left, pointer: `/requestBody${left.pointer}` })));
      const body = converted.schema;
      const bodyProperties = isObjectSchema(body) && typeof body.properties === 'object' && body.properties !== null ? body.properties as Record<string, JsonObject> : undefined;
      const flatten = bodyProperties !== undefined && Object.keys(bodyProperties).length > 0 && Object.keys(bodyProperties).every((key) => !(key in properties))
        && body.additionalProperties === undefined && body.allOf === undefined && body.anyOf === undefined && body.oneOf === undefined;
      if (flatten) {
        const bodyRequired = Array.isArray(body.required) ? body.required as string[] : [];
        for (const [key, schema] of Object.entries(bodyProperties)) {
          properties[key] = schema;
          if (requestBody.required === true && bodyRequired.includes(key)) required.push(key);
          places.push({ argument: key, in: 'body-property', name: key });
        }
      } else if ('body' in properties) {
        problem('parameter-clash', 'skipped', 'the request body cannot be flattened and a parameter is already named "body"');
      } else {
        properties.body = body;
        if (requestBody.required === true) required.push('body');
        places.push({ argument: 'body', in: 'body', name: 'body' });
      }
    }
  }
  if (refused) return undefined;
  const inputSchema: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = required;
  return { inputSchema, places, hasBody };
}
