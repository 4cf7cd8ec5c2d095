/**
 * The seed guide's closing tip: after writing a tool definition, ask a model "how would you call
 * this?" and compare its answer with what you meant. Per tool, the model is shown the tool as its
 * provider receives it and asked when it would call it, for which task, with which arguments; the
 * arguments are then checked against the ORIGINAL schema (required fields, types, ranges, units).
 */
import { isJsonObject } from '../json/json-object.js';
import { compileSchema } from '../schema/index.js';
import { EvalError } from './eval-error.js';
import { buildRequest, callModel } from './providers.js';
import type { ModelTarget } from './providers.js';
import { lowerCatalog } from './run-eval.js';

/** One tool's interview. */
export interface InterviewAnswer {
  tool: string;
  description: string;
  /** The model's answers, as it gave them (absent when the reply could not be read). */
  when?: string;
  task?: string;
  arguments?: unknown;
  /** Where the answer disagrees with the schema, one line each. */
  mismatches: string[];
  /** Why there is no answer (request failed, reply not JSON). */
  error?: string;
}

const QUESTION = [
  'You are given one tool definition, exactly as you would receive it. Do not call it.',
  'Answer with one JSON object and nothing else: {"when": "<one sentence: when you would call this tool>",',
  '"task": "<a realistic user request for which you would call it>", "arguments": {<the arguments you would pass for that task>}}.',
].join(' ');

/** The first JSON object in a text reply (models often wrap it in a code fence or a sentence). */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const candidates = [fenced?.[1], text];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    const start = candidate.indexOf('{');
    const end = candidate.lastIndexOf('}');
    if (start < 0 || end <= start) continue;
    try {
      const value: unknown = JSON.parse(candidate.slice(start, end + 1));
      if (isJsonObject(value)) return value;
    } catch { /* try the next candidate */ }
  }
  return undefined;
}

/** Disagreements between proposed arguments and the schema, said the way a tool author reads them. */
export function schemaMismatches(schema: Record<string, unknown>, args: unknown): string[] {
  const problems: string[] = [];
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  if (isJsonObject(args)) {
    for (const [name, value] of Object.entries(args)) {
      const property = properties[name];
      if (!isJsonObject(property)) continue;
      const numeric = property.type === 'number' || property.type === 'integer';
      if (numeric && typeof value === 'string' && /^\s*-?\d+(?:\.\d+)?\s*[^\d\s.,-]+/.test(value)) {
        problems.push(`unit: "${name}" was given as ${JSON.stringify(value)}, but it is a bare number${typeof property.description === 'string' ? ` (${property.description})` : ''}`);
      }
    }
  }
  for (const error of compileSchema(schema).validate(args).errors) {
    const kind = error.keyword === 'required' ? 'required' : ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'].includes(error.keyword) ? 'range' : error.keyword;
    problems.push(`${kind}: ${error.message}`);
  }
  return problems;
}

/** Interviews the model about every tool of the catalog, one question per tool. */
export async function interviewTools(tools: readonly unknown[], options: { target: ModelTarget; apiKey: string | undefined; timeoutMs: number; onProgress?: (done: number, total: number, tool: string) => void }): Promise<InterviewAnswer[]> {
  const catalog = lowerCatalog(tools, options.target);
  const answers: InterviewAnswer[] = [];
  let reached = false;
  let unreachable: EvalError | undefined;
  for (const [index, mapped] of catalog.tools.entries()) {
    const description = typeof mapped.tool.description === 'string' ? mapped.tool.description : '';
    const answer: InterviewAnswer = { tool: mapped.mcpName, description, mismatches: [] };
    const request = buildRequest(options.target, undefined, { system: QUESTION, user: JSON.stringify(mapped.json, null, 2) }, options.apiKey);
    try {
      const reply = await callModel(options.target, request, options.timeoutMs);
      reached = true;
      const parsed = extractJsonObject(reply.text);
      if (parsed === undefined) {
        answer.error = `the reply has no JSON object: ${JSON.stringify(reply.text.slice(0, 120))}`;
      } else {
        if (typeof parsed.when === 'string') answer.when = parsed.when;
        if (typeof parsed.task === 'string') answer.task = parsed.task;
        answer.arguments = parsed.arguments;
        if (answer.when === undefined || answer.when.trim() === '') answer.mismatches.push('when: the model could not say when it would call this tool');
        answer.mismatches.push(...schemaMismatches(mapped.tool.inputSchema as Record<string, unknown>, parsed.arguments ?? {}));
      }
    } catch (error) {
      if (!(error instanceof EvalError) || (error.code !== 'provider-call' && error.code !== 'reply-shape')) throw error;
      if (error.code === 'provider-call' && error.unreachable) unreachable ??= error;
      else reached = true;
      answer.error = error.message;
    }
    answers.push(answer);
    options.onProgress?.(index + 1, catalog.tools.length, mapped.mcpName);
  }
  if (!reached && unreachable !== undefined) throw unreachable;
  return answers;
}
