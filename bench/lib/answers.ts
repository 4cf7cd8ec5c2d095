// Checks that an answer is a correct result before anything is measured: a server that answers
// fast but wrong (or not at all) must never show up as a number in the table.
import { EXPECTED_SUM } from '../shared/mcp.js';

export class WrongAnswerError extends Error {
  override readonly name = 'WrongAnswerError';
}

interface RpcEnvelope { jsonrpc?: unknown; id?: unknown; result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown } }

/** Parse a JSON or single-response SSE body into its JSON-RPC message. */
export function parseRpcBody(contentType: string, body: string): RpcEnvelope {
  if (contentType.startsWith('text/event-stream')) {
    const data = body.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim());
    const last = data[data.length - 1];
    if (last === undefined) throw new WrongAnswerError('SSE response carried no data frame');
    return JSON.parse(last) as RpcEnvelope;
  }
  return JSON.parse(body) as RpcEnvelope;
}

function envelopeOk(message: RpcEnvelope, id: number, what: string): Record<string, unknown> {
  if (message.jsonrpc !== '2.0') throw new WrongAnswerError(`${what}: jsonrpc is ${JSON.stringify(message.jsonrpc)}`);
  if (message.id !== id) throw new WrongAnswerError(`${what}: id ${JSON.stringify(message.id)} does not echo ${id}`);
  if (message.error !== undefined) throw new WrongAnswerError(`${what}: error ${JSON.stringify(message.error)}`);
  const result = message.result;
  if (result === undefined || result === null || typeof result !== 'object') throw new WrongAnswerError(`${what}: no result object`);
  if (result['resultType'] !== 'complete') throw new WrongAnswerError(`${what}: resultType is ${JSON.stringify(result['resultType'])}`);
  return result;
}

export function checkSumAnswer(message: RpcEnvelope, id: number): void {
  const result = envelopeOk(message, id, 'tools/call calculate_sum');
  if (result['isError'] === true) throw new WrongAnswerError(`tools/call returned isError: ${JSON.stringify(result['content'])}`);
  const structured = result['structuredContent'] as Record<string, unknown> | undefined;
  if (structured?.['sum'] !== EXPECTED_SUM) throw new WrongAnswerError(`structuredContent is ${JSON.stringify(structured)}, expected {"sum":${EXPECTED_SUM}}`);
  const content = result['content'];
  if (!Array.isArray(content) || !content.some((block: { type?: unknown; text?: unknown }) => block.type === 'text' && typeof block.text === 'string' && block.text.includes(String(EXPECTED_SUM)))) {
    throw new WrongAnswerError(`content has no text block carrying the sum: ${JSON.stringify(content)}`);
  }
}

export interface ListPage {
  readonly names: string[];
  readonly nextCursor: string | undefined;
}

/** One `tools/list` page; a server may paginate (the spec leaves page size to the server). */
export function checkListPage(message: RpcEnvelope, id: number): ListPage {
  const result = envelopeOk(message, id, 'tools/list');
  const tools = result['tools'];
  if (!Array.isArray(tools)) throw new WrongAnswerError('tools/list result has no tools array');
  if (typeof result['ttlMs'] !== 'number' || typeof result['cacheScope'] !== 'string') throw new WrongAnswerError('tools/list result lacks ttlMs/cacheScope');
  const cursor = result['nextCursor'];
  if (cursor !== undefined && typeof cursor !== 'string') throw new WrongAnswerError(`nextCursor is ${JSON.stringify(cursor)}`);
  return { names: tools.map((tool: { name?: unknown }) => String(tool.name)), nextCursor: cursor };
}

/** The whole catalog, gathered over every page, must be exactly the tools registered. */
export function checkWholeList(names: readonly string[], expectedTools: number): void {
  if (names.length !== expectedTools) throw new WrongAnswerError(`tools/list returned ${names.length} tools over all pages, expected ${expectedTools}`);
  if (new Set(names).size !== names.length) throw new WrongAnswerError('tools/list returned a tool twice across pages');
  if (!names.includes('calculate_sum')) throw new WrongAnswerError('tools/list lacks calculate_sum');
}

export function checkDiscoverAnswer(message: RpcEnvelope, id: number): void {
  const result = envelopeOk(message, id, 'server/discover');
  const versions = result['supportedVersions'];
  if (!Array.isArray(versions) || !versions.includes('2026-07-28')) throw new WrongAnswerError(`server/discover supportedVersions is ${JSON.stringify(versions)}`);
}

/**
 * How a validating server answered schema-violating arguments: a JSON-RPC error code or an
 * `isError` result. Returns null when it executed the call anyway (i.e. did not validate).
 */
export function rejectionOf(message: RpcEnvelope): string | null {
  if (message.error !== undefined) return `JSON-RPC error ${String(message.error.code)}`;
  if (message.result?.['isError'] === true) return 'isError result';
  return null;
}
