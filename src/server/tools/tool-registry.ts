import type { CompiledSchema } from '../../schema/index.js';
import type { HeaderAnnotation } from '../../protocol/x-mcp-header.js';
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import { isTool } from './define-tool.js';
import { analyzeToolDefinition } from './tool-definition-rules.js';
import type { DefinitionProblem } from './tool-definition-rules.js';
import type { Tool } from '../contract/tool-types.js';
import type { Middleware } from '../contract/middleware.js';
import { scopesWithoutAuthorize } from '../auth/scope-refusal.js';
import { DefinitionError } from '../../errors/toolwright-error.js';

/** A tool accepted by a server, with everything the hot path needs precomputed. */
export interface RegisteredTool {
  readonly tool: Tool;
  readonly name: string;
  readonly descriptor: Readonly<ToolDescriptor>;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  readonly headers: readonly HeaderAnnotation[];
  /**
   * Middleware chains by where they wrap (`Middleware.at`); undefined when no middleware applies.
   * The runner (pipeline/compose.ts) knows which stage each place starts at.
   */
  readonly layers: MiddlewareLayers | undefined;
}

/** A tool's middleware chains, outermost first, by where they wrap. */
export type MiddlewareLayers = { readonly [At in NonNullable<Middleware['at']>]?: readonly Middleware[] };

/** The chains wrapping one tool: server-wide middleware outside the tool's own, grouped by where they wrap. */
function layersFor(tool: Tool, serverUse: readonly Middleware[]): RegisteredTool['layers'] {
  const all = [...serverUse.filter((m) => m.appliesTo === undefined || m.appliesTo(tool.name)), ...tool.use];
  if (all.length === 0) return undefined;
  const layers: { -readonly [At in keyof MiddlewareLayers]: readonly Middleware[] } = {};
  for (const at of ['arguments', 'validated'] as const) {
    const chain = all.filter((m) => (m.at ?? 'arguments') === at);
    if (chain.length > 0) layers[at] = chain;
  }
  return layers;
}

function checkMiddleware(list: unknown, where: string): readonly Middleware[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new TypeError(`${where}: use must be an array of middleware`);
  list.forEach((m: unknown, index) => {
    const candidate = m as Partial<Middleware> | null;
    if (typeof candidate !== 'object' || candidate === null || typeof candidate.name !== 'string' || candidate.name === '' || typeof candidate.handle !== 'function') {
      throw new TypeError(`${where}: use[${index}] must be a middleware { name, handle(call, next) }`);
    }
    if (candidate.at !== undefined && candidate.at !== 'arguments' && candidate.at !== 'validated') {
      throw new TypeError(`${where}: use[${index}] (${candidate.name}) has at ${JSON.stringify(candidate.at)}; use "arguments" or "validated"`);
    }
    if (candidate.close !== undefined && typeof candidate.close !== 'function') {
      throw new TypeError(`${where}: use[${index}] (${candidate.name}) has a close that is not a function`);
    }
  });
  return list as readonly Middleware[];
}

/** Thrown by `createServer` when any tool definition is invalid; the server never starts half-valid. */
export class ServerDefinitionError extends DefinitionError {
  readonly errorCode = 'server-definition' as const;
  readonly problems: readonly DefinitionProblem[];
  constructor(problems: DefinitionProblem[]) {
    const lines = problems.map((p) => `- tool ${JSON.stringify(p.tool)}: ${p.message}`);
    super(`Invalid tool definition${problems.length === 1 ? '' : 's'}; the server was not created:\n${lines.join('\n')}`);
    this.name = 'ServerDefinitionError';
    this.problems = problems;
  }
}

/**
 * Checks and compiles every tool once. All problems of all tools are collected before failing so a
 * developer sees the whole list at start-up.
 */
export function registerTools(tools: readonly unknown[], options: { canAuthorize: boolean; use?: readonly Middleware[] }): RegisteredTool[] {
  const serverUse = checkMiddleware(options.use, 'createServer');
  const problems: DefinitionProblem[] = [];
  const registered: RegisteredTool[] = [];
  const seen = new Set<string>();
  tools.forEach((candidate, index) => {
    if (!isTool(candidate)) {
      problems.push({ tool: `tools[${index}]`, field: 'tool', code: 'not-a-tool', message: `tools[${index}] is not a tool created by defineTool()` });
      return;
    }
    const analysis = analyzeToolDefinition(candidate.descriptor);
    problems.push(...analysis.problems);
    if (seen.has(candidate.name)) {
      problems.push({ tool: candidate.name, field: 'name', code: 'duplicate-name', message: 'name is used by more than one tool (names must be unique)' });
    }
    seen.add(candidate.name);
    if (candidate.scopes.length > 0 && !options.canAuthorize) {
      problems.push({
        tool: candidate.name, field: 'scopes', code: 'scopes-without-authorize',
        message: scopesWithoutAuthorize(candidate.scopes),
      });
    }
    if (analysis.problems.length === 0 && analysis.input !== undefined) {
      registered.push({
        tool: candidate, name: candidate.name, descriptor: candidate.descriptor, input: analysis.input, output: analysis.output, headers: analysis.headers,
        layers: layersFor(candidate, serverUse),
      });
    }
  });
  if (problems.length > 0) throw new ServerDefinitionError(problems);
  return registered;
}

/** Told about a schema that passed every definition check but that the validator builder still refused. */
export type ValidatorRefusal = (tool: string, field: 'inputSchema' | 'outputSchema', message: string) => void;

// The longest stretch the warm-up keeps the event loop before letting waiting requests run.
const WARM_SLICE_MS = 4;

/**
 * Builds every tool's validators in the background (validators compile on first use, see
 * compileFast), a few milliseconds per event-loop turn, so a server answers `server/discover` and
 * `tools/list` at once and its first `tools/call` seldom pays for code generation. A validator is
 * built at most once, whether the warm-up or a call reaches it first. A refused schema is reported
 * through `onRefused`; calls to that tool then fail closed with the same reason. Returns a stop function.
 */
export function warmValidators(tools: readonly RegisteredTool[], onRefused: ValidatorRefusal): () => void {
  let next = 0;
  let stopped = false;
  const probe = (tool: RegisteredTool, field: 'inputSchema' | 'outputSchema', compiled: CompiledSchema | undefined): void => {
    if (compiled === undefined) return;
    const verdict = compiled.validate(null);
    // `keyword: "validation"` is how the schema engine reports a validator it could not build or run.
    const failure = verdict.valid ? undefined : verdict.errors.find((e) => e.keyword === 'validation');
    if (failure) onRefused(tool.name, field, failure.message.replace(/^\/: /, ''));
  };
  const slice = (): void => {
    if (stopped) return;
    const until = performance.now() + WARM_SLICE_MS;
    while (next < tools.length && performance.now() < until) {
      const tool = tools[next++]!;
      probe(tool, 'inputSchema', tool.input);
      probe(tool, 'outputSchema', tool.output);
    }
    if (next < tools.length) setImmediate(slice).unref();
  };
  setImmediate(slice).unref();
  return () => { stopped = true; };
}
