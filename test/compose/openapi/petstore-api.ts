/**
 * A small real HTTP API on 127.0.0.1 (node:http) and its OpenAPI 3.0 description, for the
 * OpenAPI import tests. It records every request it receives so tests can check exactly what
 * reached it.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest { method: string; url: string; headers: IncomingMessage['headers']; body: string }

export interface PetstoreApi {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const PETS: Record<string, { id: number; name: string; tag: string | null }> = { 7: { id: 7, name: 'Rex', tag: null } };

function reply(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Starts the API; `/slow` holds its answer until the API is closed (the timeout test needs no sleep). */
export async function startPetstoreApi(): Promise<PetstoreApi> {
  const seen: SeenRequest[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://localhost');
      const pet = /^\/pets\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && pet) {
        const found = PETS[decodeURIComponent(pet[1]!)];
        if (!found) return reply(res, 404, { message: `no pet ${decodeURIComponent(pet[1]!)}` });
        return reply(res, 200, { ...found, verbose: url.searchParams.get('verbose') === 'true', trace: req.headers['x-trace'] ?? null });
      }
      if (req.method === 'POST' && url.pathname === '/pets') {
        if (req.headers.authorization !== 'Bearer upstream-secret') return reply(res, 401, { message: 'bad credentials' });
        const input = JSON.parse(body) as { name: string; tag?: string };
        return reply(res, 201, { id: 8, name: input.name, tag: input.tag ?? null });
      }
      if (req.method === 'PUT' && url.pathname === '/tags') return reply(res, 200, { tags: JSON.parse(body) as unknown });
      if (req.method === 'GET' && url.pathname === '/things/a1') return reply(res, 200, { path: 'a1', query: url.searchParams.get('id'), key: url.searchParams.get('api_key'), tags: url.searchParams.getAll('tags'), fields: url.searchParams.getAll('fields') });
      if (url.pathname === '/names') return reply(res, 200, ['Rex', 'Tom']);
      if (url.pathname === '/boom') return reply(res, 500, 'database is down\n' + 'x'.repeat(2000), 'text/plain');
      if (url.pathname === '/big') return reply(res, 200, { blob: 'y'.repeat(4096) });
      if (url.pathname === '/slow') return void held.push(res);
      reply(res, 404, { message: 'no route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const PET = {
  type: 'object', required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string', nullable: true }, verbose: { type: 'boolean' }, trace: { type: 'string', nullable: true } },
};

/** The API's OpenAPI 3.0 description (servers left out: the tests give `baseUrl`). */
export function petstoreDocument(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1.0.0' },
    components: {
      schemas: { Pet: PET, NewPet: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, tag: { type: 'string' } } } },
      securitySchemes: { token: { type: 'http', scheme: 'bearer' }, key: { type: 'apiKey', in: 'query', name: 'api_key' } },
    },
    paths: {
      '/pets/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, description: 'The pet id.', schema: { type: 'string' } }],
        get: {
          operationId: 'pets/get-pet', summary: 'Get a pet by id.',
          parameters: [
            { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
            { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
            { name: 'Authorization', in: 'header', schema: { type: 'string' } },
          ],
          responses: { 200: { description: 'the pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, 404: { description: 'no such pet' } },
        },
      },
      '/pets': {
        post: {
          operationId: 'pets/create', summary: 'Create a pet.', security: [{ token: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } },
          responses: { 201: { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
      '/tags': {
        put: {
          operationId: 'tags.replace', description: 'Replace all tags.',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { tags: { type: 'array' } } } } } } },
        },
      },
      '/things/{id}': {
        get: {
          operationId: 'things_get', security: [{ key: [] }],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'id', in: 'query', schema: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
            { name: 'fields', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } }],
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
      '/names': { get: { responses: { 200: { description: 'names', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } } } },
      '/boom': { get: { operationId: 'boom', responses: { 200: { description: 'never' } } } },
      '/big': { get: { operationId: 'big', responses: { 200: { description: 'large', content: { 'application/json': { schema: { type: 'object' } } } } } } },
      '/slow': { get: { operationId: 'slow', responses: { 200: { description: 'late' } } } },
    },
  };
}
