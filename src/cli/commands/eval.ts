import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { loadToolTarget, ToolTargetError } from '../load-tool-target.js';
import { parseHeaderOptions, UsageError } from '../usage-error.js';
import { OAUTH_OPTIONS, oauthFromOptions } from '../oauth-options.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';
import { DiffTargetError, loadDiffSide } from '../../diff/load-catalog.js';
import type { TargetLoader } from '../../diff/load-catalog.js';
import { parseCaseFile } from '../../eval/cases.js';
import { EvalError } from '../../eval/eval-error.js';
import { resolveModelTarget } from '../../eval/providers.js';
import { runEval } from '../../eval/run-eval.js';
import { interviewTools } from '../../eval/interview.js';
import { formatCompareTable, formatInterview, formatRunTable, progressLine, runJson } from '../../eval/report.js';

const USAGE = `Usage: toolwright eval <cases.yaml|cases.json> --target <server> --model <provider:model> [options]
       toolwright eval <cases> --target <new> --compare <old> --model <provider:model>
       toolwright eval --interview --target <server> --model <provider:model>

Sends the catalog as the provider receives it (the host profiles) and scores each case: tool
choice, argument validity against the original schema as sent and after repair, repairs needed.
Needs a real model endpoint: an API key in the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY,
GEMINI_API_KEY) or a local OpenAI-compatible server (ollama, vllm, llamacpp, lmstudio, or --base-url).

Options:
  --target <server>         what lint reads: module, tools.json, URL, or a pin lockfile / REV:path
  --stdio "<command>"       the target is a stdio server command
  --model <provider:model>  openai, anthropic, gemini, ollama, vllm, llamacpp, lmstudio (e.g. openai:gpt-4.1)
  --base-url <url>          the provider's endpoint (e.g. http://127.0.0.1:11434/v1)
  --trials <n>              run each case n times (default 1, at most 100)
  --compare <old-catalog>   run the same cases on an older catalog too and show the difference per case
  --interview               ask the model, per tool, when and how it would call it (no case file)
  --format table|json       output (default table)
  --timeout <ms>            per model request (default 60000)
  --header "Name: value"    extra HTTP header for URL targets (repeatable)
  --oauth, --client-credentials, --client-id, --scope, --token-cache ...
                            OAuth for URL targets (options as in "toolwright call --help"; docs/auth.md)
  -h, --help                show this help

Exit codes: 0 every case passed (interview: no mismatch), 1 some did not, 2 bad usage, an
unreadable target or case file, or a model that could not be reached at all.`;

export type { CommandIo };

/** One line for `toolwright --help`. */
export const summary = 'run a regression set of requests against a real model, or interview it about each tool';

function positiveInteger(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0 || n > max) throw new UsageError(`${name} must be an integer from 1 to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * `toolwright eval`: the regression set and the interview. Returns the exit code (see USAGE).
 */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const { stdout, stderr } = io;
  const env = io.env ?? process.env;
  const parsed = parseCommandArgs('eval', USAGE, argv, {
    target: { type: 'string' }, stdio: { type: 'string' }, model: { type: 'string' }, 'base-url': { type: 'string' },
    trials: { type: 'string' }, compare: { type: 'string' }, interview: { type: 'boolean', default: false },
    format: { type: 'string', default: 'table' }, timeout: { type: 'string' }, header: { type: 'string', multiple: true, default: [] }, ...OAUTH_OPTIONS,
  }, io);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  try {
    const format = values.format as string;
    if (format !== 'table' && format !== 'json') throw new UsageError(`--format must be table or json; got ${JSON.stringify(format)}`);
    const interview = values.interview === true;
    if (interview && positionals.length > 0) throw new UsageError('--interview takes no case file');
    if (interview && values.compare !== undefined) throw new UsageError('--interview and --compare do not go together');
    if (!interview && positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <cases.yaml|cases.json>' : `expected one case file, got ${positionals.length}`);
    const stdio = values.stdio as string | undefined;
    const targetText = values.target as string | undefined;
    if ((stdio === undefined) === (targetText === undefined)) throw new UsageError('give the server with --target <server> or --stdio "<command>" (one of them)');
    if (values.model === undefined) throw new UsageError('missing --model <provider:model>');
    const target = resolveModelTarget(values.model as string, values['base-url'] as string | undefined);
    const apiKey = target.keyVariable !== undefined ? env[target.keyVariable] : undefined;
    if (target.keyVariable !== undefined && (apiKey === undefined || apiKey === '') && values['base-url'] === undefined) {
      throw new UsageError(`${target.provider} needs an API key: set ${target.keyVariable}, or point --base-url at a compatible endpoint`);
    }
    const trials = positiveInteger(values.trials as string | undefined, '--trials', 1, 100);
    const timeoutMs = positiveInteger(values.timeout as string | undefined, '--timeout', 60_000, 3_600_000);
    const headers = parseHeaderOptions(values.header as string[]);

    let cases;
    if (!interview) {
      const file = positionals[0]!;
      const extension = extname(file).toLowerCase();
      if (extension !== '.yaml' && extension !== '.yml' && extension !== '.json') throw new UsageError(`the case file must be .yaml, .yml or .json, got ${file}`);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read case file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      cases = parseCaseFile(text, extension === '.json' ? 'json' : 'yaml', file);
    }
    const oauth = oauthFromOptions(values, 'eval');
    const load: TargetLoader = (t, o) => loadToolTarget(t, { ...o, headers, ...(oauth !== undefined ? { oauth } : {}) });
    const current = await loadDiffSide(stdio ?? targetText!, load, { stdio: stdio !== undefined });
    const progress = stderr.isTTY === true
      ? (done: number, total: number, label: string) => stderr.write(`${progressLine(done, total, label)}${done === total ? '\n' : ''}`)
      : undefined;

    if (interview) {
      const answers = await interviewTools(current.tools, { target, apiKey, timeoutMs, onProgress: progress });
      stdout.write(format === 'json' ? `${JSON.stringify({ model: `${target.provider}:${target.model}`, catalog: current.label, tools: answers }, null, 2)}\n` : formatInterview(answers, `${target.provider}:${target.model}`));
      return answers.some((a) => a.mismatches.length > 0 || a.error !== undefined) ? 1 : 0;
    }
    const options = { target, apiKey, trials, timeoutMs, onProgress: progress };
    const after = await runEval(cases!, current.tools, current.label, options);
    if (values.compare !== undefined) {
      const old = await loadDiffSide(values.compare as string, load);
      const before = await runEval(cases!, old.tools, old.label, options);
      stdout.write(format === 'json' ? `${JSON.stringify({ before: runJson(before), after: runJson(after) }, null, 2)}\n` : `${formatCompareTable(before, after)}\n${formatRunTable(before)}\n${formatRunTable(after)}`);
      return after.totals.passed === after.totals.trials ? 0 : 1;
    }
    stdout.write(format === 'json' ? `${JSON.stringify(runJson(after), null, 2)}\n` : formatRunTable(after));
    return after.totals.passed === after.totals.trials ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ToolTargetError || error instanceof DiffTargetError || (error instanceof EvalError && error.code !== 'reply-shape')) {
      stderr.write(`toolwright eval: ${error.message}${error instanceof EvalError && error.code === 'provider-call' ? ' (no request reached the model, so there is nothing to score)' : ''}\n`);
      if (error instanceof UsageError) stderr.write('Run "toolwright eval --help" for usage.\n');
      return 2;
    }
    throw error;
  }
}
