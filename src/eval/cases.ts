/**
 * The regression set: a file of cases (YAML or JSON), each a user request with what should happen.
 * The seed guide (§6.3): keep a fixed set of test questions and compare tool-calling accuracy
 * before and after every change to a definition.
 */
import { isJsonObject } from '../json/json-object.js';
import { parse as parseYaml } from 'yaml';
import { checkSchema } from '../schema/index.js';
import { EvalError } from './eval-error.js';

/** What one case expects. */
export interface CaseExpectation {
  /** The MCP tool the model should call, or `null` when it should call none ("no tool"). */
  tool: string | null;
  /** Exact values, by top-level argument name (compared as JSON; other arguments may be present). */
  arguments?: Record<string, unknown>;
  /** A JSON Schema the (repaired) arguments must satisfy, for assertions exact values cannot say. */
  argumentsSchema?: Record<string, unknown> | boolean;
}

/** One case of the regression set. */
export interface EvalCase {
  id: string;
  /** What the user says. */
  request: string;
  /** Optional context sent as the system prompt (the situation, earlier results). */
  context?: string;
  expect: CaseExpectation;
}

const CASE_KEYS = new Set(['id', 'request', 'context', 'expect']);
const EXPECT_KEYS = new Set(['tool', 'arguments', 'argumentsSchema']);

/**
 * Parses a case file: `{cases: [{id, request, context?, expect: {tool | null, arguments?, argumentsSchema?}}]}`
 * (or a bare list of cases), as YAML when `format` is `yaml`, else JSON. `expect.tool: none` is the
 * same as `null`. Unknown keys, duplicate ids and invalid argument schemas are errors.
 */
export function parseCaseFile(text: string, format: 'yaml' | 'json', label: string): EvalCase[] {
  let data: unknown;
  try {
    data = format === 'yaml' ? parseYaml(text, { prettyErrors: true, uniqueKeys: true }) : JSON.parse(text);
  } catch (error) {
    throw new EvalError('case-file', `${label} is not valid ${format.toUpperCase()}: ${(error as Error).message.split('\n')[0]}`);
  }
  const list = Array.isArray(data) ? data : isJsonObject(data) ? data.cases : undefined;
  if (!Array.isArray(list)) throw new EvalError('case-file', `${label}: expected {"cases": [...]} or a list of cases`);
  if (list.length === 0) throw new EvalError('case-file', `${label}: no cases`);
  const seen = new Set<string>();
  return list.map((entry, index) => {
    const where = `${label}: cases[${index}]`;
    if (!isJsonObject(entry)) throw new EvalError('case-file', `${where} must be an object`);
    for (const key of Object.keys(entry)) if (!CASE_KEYS.has(key)) throw new EvalError('case-file', `${where}.${key} is not allowed (use id, request, context, expect)`);
    const id = entry.id === undefined ? `case-${index + 1}` : entry.id;
    if (typeof id !== 'string' || id.trim() === '') throw new EvalError('case-file', `${where}.id must be a non-empty string`);
    if (seen.has(id)) throw new EvalError('case-file', `${where}.id "${id}" is used twice`);
    seen.add(id);
    if (typeof entry.request !== 'string' || entry.request.trim() === '') throw new EvalError('case-file', `${where} (${id}).request must be a non-empty string`);
    if (entry.context !== undefined && typeof entry.context !== 'string') throw new EvalError('case-file', `${where} (${id}).context must be a string`);
    const expect = entry.expect;
    if (!isJsonObject(expect)) throw new EvalError('case-file', `${where} (${id}).expect must be an object with "tool" (a tool name, or none)`);
    for (const key of Object.keys(expect)) if (!EXPECT_KEYS.has(key)) throw new EvalError('case-file', `${where} (${id}).expect.${key} is not allowed (use tool, arguments, argumentsSchema)`);
    const tool = expect.tool === 'none' || expect.tool === null ? null : expect.tool;
    if (tool !== null && (typeof tool !== 'string' || tool === '')) throw new EvalError('case-file', `${where} (${id}).expect.tool must be a tool name, or none / null for "no tool"`);
    if (tool === null && (expect.arguments !== undefined || expect.argumentsSchema !== undefined)) throw new EvalError('case-file', `${where} (${id}): "no tool" cannot have argument expectations`);
    if (expect.arguments !== undefined && !isJsonObject(expect.arguments)) throw new EvalError('case-file', `${where} (${id}).expect.arguments must be an object of exact values by argument name`);
    const schema = expect.argumentsSchema;
    if (schema !== undefined) {
      if (!isJsonObject(schema) && typeof schema !== 'boolean') throw new EvalError('case-file', `${where} (${id}).expect.argumentsSchema must be a JSON Schema`);
      try {
        checkSchema(schema);
      } catch (error) {
        throw new EvalError('case-file', `${where} (${id}).expect.argumentsSchema is not a valid schema: ${(error as Error).message}`);
      }
    }
    const result: EvalCase = { id, request: entry.request, expect: { tool } };
    if (entry.context !== undefined) result.context = entry.context as string;
    if (expect.arguments !== undefined) result.expect.arguments = expect.arguments as Record<string, unknown>;
    if (schema !== undefined) result.expect.argumentsSchema = schema as Record<string, unknown> | boolean;
    return result;
  });
}
