/**
 * Runs a regression set against a model and scores it: tool choice, argument validity against the
 * ORIGINAL schema before and after host-side repair (src/host/repair-arguments.ts), repairs needed,
 * and the case's own assertions. Every figure is counted from real replies; a trial whose request
 * failed is an error, excluded from the rates and reported, never scored.
 */
import { mapTools, resolveToolCall, HostError } from '../host/index.js';
import type { MappedCatalog, ToolDescriptor } from '../host/index.js';
import { compileSchema } from '../schema/index.js';
import type { CompiledSchema } from '../schema/index.js';
import { canonicalJson } from '../json/canonical-json.js';
import { EvalError } from './eval-error.js';
import { buildRequest, callModel } from './providers.js';
import type { ModelTarget } from './providers.js';
import type { EvalCase } from './cases.js';

/** One trial of one case. */
export interface TrialResult {
  /** The MCP tool the model called (mapped back from the provider name), or null for none. */
  calledTool: string | null;
  toolChoiceCorrect: boolean;
  /** Arguments as sent validate against the original inputSchema (null: no offered tool was called). */
  validBefore: boolean | null;
  /** The same after host-side repair. */
  validAfter: boolean | null;
  /** Kinds of repair that were needed, e.g. `numeric-string`. */
  repairs: string[];
  /** The case's exact values and argumentsSchema hold (null: not applicable). */
  assertionsPassed: boolean | null;
  passed: boolean;
  /** Why the trial could not be scored (request failed, reply not in the documented shape). */
  error?: string;
  /** What went wrong or was odd, one line each. */
  notes: string[];
}

/** Counts over trials (errors excluded from every count but `errors`). */
export interface Tally {
  trials: number;
  errors: number;
  /** Trials that were scored. */
  scored: number;
  toolChoiceCorrect: number;
  /** Scored trials in which an offered tool was called (the base of the argument figures). */
  calls: number;
  validBefore: number;
  validAfter: number;
  repaired: number;
  passed: number;
}

export interface CaseResult {
  id: string;
  expectedTool: string | null;
  trials: TrialResult[];
  tally: Tally;
}

/** A whole run of a regression set against one catalog. */
export interface EvalRun {
  model: string;
  provider: string;
  catalog: string;
  cases: CaseResult[];
  totals: Tally;
  /** Tools the host could not lower for this provider (left out of the request). */
  mappingFailures: Array<{ tool: string; message: string }>;
}

/** Options for {@link runEval}. */
export interface RunEvalOptions {
  target: ModelTarget;
  apiKey: string | undefined;
  trials: number;
  timeoutMs: number;
  /** Called after each trial (for a progress bar). */
  onProgress?: (done: number, total: number, caseId: string) => void;
}

function emptyTally(): Tally {
  return { trials: 0, errors: 0, scored: 0, toolChoiceCorrect: 0, calls: 0, validBefore: 0, validAfter: 0, repaired: 0, passed: 0 };
}

function add(into: Tally, trial: TrialResult): void {
  into.trials++;
  if (trial.error !== undefined) {
    into.errors++;
    return;
  }
  into.scored++;
  if (trial.toolChoiceCorrect) into.toolChoiceCorrect++;
  if (trial.validBefore !== null) into.calls++;
  if (trial.validBefore === true) into.validBefore++;
  if (trial.validAfter === true) into.validAfter++;
  if (trial.repairs.length > 0) into.repaired++;
  if (trial.passed) into.passed++;
}

function sum(tallies: Tally[]): Tally {
  const total = emptyTally();
  for (const t of tallies) for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += t[key];
  return total;
}

/** The model's raw arguments as a value: text is parsed (failing text stays a string, which no object schema accepts). */
function rawValue(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function scoreTrial(testCase: EvalCase, catalog: MappedCatalog, reply: { call: { name: string; arguments: unknown } | undefined; extraCalls: number }, validators: Map<string, CompiledSchema>): TrialResult {
  const notes: string[] = [];
  if (reply.extraCalls > 0) notes.push(`${reply.extraCalls} further tool call(s) in the same reply were not scored`);
  const expected = testCase.expect.tool;
  if (reply.call === undefined) {
    if (expected !== null) notes.push(`called no tool; expected ${expected}`);
    return { calledTool: null, toolChoiceCorrect: expected === null, validBefore: null, validAfter: null, repairs: [], assertionsPassed: null, passed: expected === null, notes };
  }
  const mcpName = catalog.reverseNames[reply.call.name];
  if (mcpName === undefined) {
    notes.push(`called "${reply.call.name}", which was not offered`);
    return { calledTool: reply.call.name, toolChoiceCorrect: false, validBefore: null, validAfter: null, repairs: [], assertionsPassed: null, passed: false, notes };
  }
  const mapped = catalog.tools.find((t) => t.mcpName === mcpName)!;
  let validator = validators.get(mcpName);
  if (validator === undefined) {
    validator = compileSchema(mapped.tool.inputSchema as object);
    validators.set(mcpName, validator);
  }
  const before = validator.validate(rawValue(reply.call.arguments));
  if (!before.valid) notes.push(`as sent: ${before.errors[0]!.message}`);
  let repaired: unknown;
  let repairs: string[] = [];
  try {
    const resolved = resolveToolCall(catalog, reply.call.name, reply.call.arguments);
    repaired = resolved.arguments;
    repairs = resolved.repairs.map((r) => r.kind);
  } catch (error) {
    if (!(error instanceof HostError)) throw error;
    notes.push(`repair failed: ${error.message}`);
    repaired = rawValue(reply.call.arguments);
  }
  const after = validator.validate(repaired);
  if (!after.valid && before.valid !== after.valid) notes.push(`after repair: ${after.errors[0]!.message}`);
  const right = mcpName === expected;
  if (!right) notes.push(`called ${mcpName}; expected ${expected ?? 'no tool'}`);
  let assertionsPassed: boolean | null = null;
  if (right && (testCase.expect.arguments !== undefined || testCase.expect.argumentsSchema !== undefined)) {
    assertionsPassed = true;
    const args = (typeof repaired === 'object' && repaired !== null ? repaired : {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(testCase.expect.arguments ?? {})) {
      if (canonicalJson(args[key]) !== canonicalJson(value)) {
        assertionsPassed = false;
        notes.push(`${key}: expected ${JSON.stringify(value)}, got ${args[key] === undefined ? 'nothing' : JSON.stringify(args[key])}`);
      }
    }
    if (testCase.expect.argumentsSchema !== undefined) {
      const check = compileSchema(testCase.expect.argumentsSchema).validate(repaired);
      if (!check.valid) {
        assertionsPassed = false;
        notes.push(`argumentsSchema: ${check.errors[0]!.message}`);
      }
    }
  }
  return { calledTool: mcpName, toolChoiceCorrect: right, validBefore: before.valid, validAfter: after.valid, repairs, assertionsPassed, passed: right && after.valid && assertionsPassed !== false, notes };
}

/** Lowers the catalog for the target's host profile, as the provider will receive it. */
export function lowerCatalog(tools: readonly unknown[], target: ModelTarget): MappedCatalog {
  return mapTools(tools as ToolDescriptor[], { provider: target.profile });
}

/**
 * Runs every case `trials` times against the model. Throws an {@link EvalError} `provider-call` when not a
 * single request reached the model (there is nothing to score); otherwise failed trials are errors.
 */
export async function runEval(cases: readonly EvalCase[], tools: readonly unknown[], catalogLabel: string, options: RunEvalOptions): Promise<EvalRun> {
  const catalog = lowerCatalog(tools, options.target);
  const validators = new Map<string, CompiledSchema>();
  const total = cases.length * options.trials;
  let done = 0;
  let reached = false;
  let firstUnreachable: EvalError | undefined;
  const results: CaseResult[] = [];
  for (const testCase of cases) {
    const trials: TrialResult[] = [];
    for (let i = 0; i < options.trials; i++) {
      const request = buildRequest(options.target, catalog, { system: testCase.context, user: testCase.request }, options.apiKey);
      let trial: TrialResult;
      try {
        const reply = await callModel(options.target, request, options.timeoutMs);
        reached = true;
        trial = scoreTrial(testCase, catalog, reply, validators);
      } catch (error) {
        if (!(error instanceof EvalError) || (error.code !== 'provider-call' && error.code !== 'reply-shape')) throw error;
        if (error.code === 'provider-call' && error.unreachable) firstUnreachable ??= error;
        else reached = true;
        trial = { calledTool: null, toolChoiceCorrect: false, validBefore: null, validAfter: null, repairs: [], assertionsPassed: null, passed: false, error: error.message, notes: [] };
      }
      trials.push(trial);
      options.onProgress?.(++done, total, testCase.id);
    }
    const tally = emptyTally();
    for (const trial of trials) add(tally, trial);
    results.push({ id: testCase.id, expectedTool: testCase.expect.tool, trials, tally });
  }
  if (!reached && firstUnreachable !== undefined) throw firstUnreachable;
  return {
    model: options.target.model,
    provider: options.target.provider,
    catalog: catalogLabel,
    cases: results,
    totals: sum(results.map((r) => r.tally)),
    mappingFailures: catalog.failures.map((f) => ({ tool: f.mcpName, message: f.message })),
  };
}

/** A rate, or null when nothing was counted (shown as n/a: no figure is made up). */
export function rate(count: number, of: number): number | null {
  return of === 0 ? null : count / of;
}
