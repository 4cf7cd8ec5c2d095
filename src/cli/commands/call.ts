import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliEntry } from '../cli-entry.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import { connect, McpClientError } from '../../client/index.js';
import type { ClientRoot, ConnectTarget, McpClient, OAuthClient } from '../../client/index.js';
import { HostError, PROVIDER_NAMES, repairArguments } from '../../host/index.js';
import type { ArgumentRepair, ProviderName } from '../../host/index.js';
import type { CallToolResult, ContentBlock } from '../../protocol/index.js';
import { parseHeaderOptions, parseTimeoutOption, UsageError } from '../usage-error.js';
import { callAsTask, describeProgress } from '../call-task.js';
import { OAUTH_OPTIONS, OAUTH_USAGE, oauthFromOptions } from '../oauth-options.js';

const USAGE = `Usage: toolwright call <target> <tool> ['<json args>'] [options]
       toolwright call --stdio "<command>" <tool> ['<json args>'] [options]

Calls one tool directly, bypassing any model, and prints its content, structured content, isError
and how each client-side stage went (repair, request, validation). Progress the server reports
while the call runs (a motion, a wait for an operator's approval) goes to stderr as it comes.

Targets: a running server URL (http://...), a stdio server command (--stdio), or a server module
(default export from createServer()), which is started as \`toolwright serve <module> --stdio\`.
Servers of either era work: 2026-07-28, or initialize-based 2025 revisions (found automatically).

Options:
  --repair <provider>    repair the arguments as a model of that provider would need
                         (${PROVIDER_NAMES.join(' | ')}): numeric strings, "true"/"false",
                         JSON strings, nulls of strict-nullable optionals, "" -> {}
  --header "Name: value" extra HTTP header for URL targets (repeatable), e.g. Authorization
  --root <dir>           offer this directory to the server as a root (repeatable): declares the
                         roots capability and answers roots/list (server-filesystem started
                         without a directory takes its allowed directories from these)
  --task                 run it as a task (io.modelcontextprotocol/tasks) if the server decides so:
                         status and progress go to stderr, Ctrl-C cancels the task on the server
  --timeout <ms>         request timeout (default 60000)
  --json                 machine-readable output
  -h, --help             show this help

${OAUTH_USAGE}

Exit codes: 0 the tool ran (isError false); 1 the tool reported an error (isError true);
2 bad usage or unusable arguments (not JSON, not an object, not repairable); 3 the call failed:
JSON-RPC error, HTTP or transport failure (server unreachable or not starting), timeout,
structuredContent breaking the outputSchema, the tool not listed (with --repair), or the tool
asking for user input, which this command cannot give; 130 the task was cancelled (Ctrl-C).`;

/** One line for `toolwright --help`. */
export const summary = 'call one tool directly and show content, structured content, isError and stage outcomes';


type StageStatus = 'ok' | 'skipped' | 'failed';
interface Stage {
  stage: 'repair' | 'request' | 'validation';
  status: StageStatus;
  detail: string;
}


function targetOf(target: string | undefined, stdio: string | undefined, headers: Record<string, string>, oauth: OAuthClient | undefined): ConnectTarget {
  if (stdio !== undefined) return { command: stdio, shell: true, stderr: 'inherit' };
  const given = target as string;
  if (/^https?:\/\//i.test(given)) return oauth === undefined ? { url: given, headers } : { url: given, headers, oauth };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given)) throw new UsageError(`unsupported URL scheme in ${given} (use http:// or https://, or --stdio "<command>")`);
  if (!/\.(m|c)?(j|t)s$/.test(given)) throw new UsageError(`${given}: expected an http(s) URL, a server module (.js/.ts) or --stdio "<command>"`);
  // A module is served over stdio by this same CLI, so it runs exactly as `toolwright serve` would run it.
  const { main } = cliEntry();
  return { command: process.execPath, args: [...process.execArgv, main, 'serve', resolve(given), '--stdio'], stderr: 'inherit' };
}

/** `--root` directories as file:// roots; each must exist (a typo would silently grant nothing). */
function rootsOf(dirs: readonly string[]): ClientRoot[] | undefined {
  if (dirs.length === 0) return undefined;
  return dirs.map((dir) => {
    const path = resolve(dir);
    let isDirectory = false;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      throw new UsageError(`--root ${dir}: no such directory`);
    }
    if (!isDirectory) throw new UsageError(`--root ${dir}: not a directory`);
    return { uri: pathToFileURL(path).href, name: dir };
  });
}

function describeRepair(repair: ArgumentRepair): string {
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  return `${repair.path || '(root)'} ${repair.kind}: ${show(repair.from)} -> ${show(repair.to)}`;
}

function formatContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return `  [text] ${block.text.replace(/\n/g, '\n         ')}`;
    case 'image':
    case 'audio':
      return `  [${block.type}] ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes`;
    case 'resource_link':
      return `  [resource_link] ${block.uri} (${block.name})`;
    case 'resource':
      return `  [resource] ${block.resource.uri}${'text' in block.resource ? `: ${block.resource.text}` : ' (binary)'}`;
    default:
      return `  [${String((block as { type?: unknown }).type)}] ${JSON.stringify(block)}`;
  }
}

/**
 * An error's text without the JSON-RPC code and HTTP status that the client's message appends: the
 * Error line's heading gives them, and the request stage's line sits right above it.
 */
function plainMessage(error: McpClientError): string {
  if (error.kind === 'rpc' && error.serverMessage !== undefined) return `${error.method ?? 'request'} failed: ${error.serverMessage}`;
  return error.message;
}

/** `Error (rpc -31429, HTTP 429): ...`, naming the HTTP status only where the text does not already. */
function errorLine(error: McpClientError): string {
  const text = plainMessage(error);
  const code = error.code !== undefined ? ` ${error.code}` : '';
  const status = error.httpStatus !== undefined && !text.includes(`HTTP ${error.httpStatus}`) ? `, HTTP ${error.httpStatus}` : '';
  return `Error (${error.kind}${code}${status}): ${text}`;
}

function printPretty(stages: Stage[], result: CallToolResult | undefined, error: McpClientError | undefined): void {
  const out: string[] = ['Stages:'];
  for (const s of stages) out.push(`  ${s.stage.padEnd(11)} ${s.status.padEnd(8)} ${s.detail}`);
  if (result !== undefined) {
    out.push('', 'Content:');
    if (result.content.length === 0) out.push('  (none)');
    for (const block of result.content) out.push(formatContent(block));
    out.push('', 'Structured content:', result.structuredContent === undefined ? '  (none)' : JSON.stringify(result.structuredContent, null, 2).replace(/^/gm, '  '));
    out.push('', `isError: ${result.isError === true}`);
  }
  if (error !== undefined) {
    out.push('', errorLine(error));
    if (error.kind === 'rpc' && error.data !== undefined) out.push(`  data: ${JSON.stringify(error.data)}`);
    if (error.kind === 'input_required' && error.data !== undefined) out.push(`  input requests: ${JSON.stringify((error.data as { inputRequests?: unknown }).inputRequests ?? null)}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

function errorJson(error: McpClientError): Record<string, unknown> {
  return {
    kind: error.kind,
    message: error.message,
    ...(error.code !== undefined ? { code: error.code } : {}),
    ...(error.httpStatus !== undefined ? { httpStatus: error.httpStatus } : {}),
    ...(error.data !== undefined ? { data: error.data } : {}),
    ...(error.errors.length > 0 ? { errors: error.errors } : {}),
  };
}

/** `toolwright call`: exit 0 ok, 1 isError, 2 usage, 3 call failed. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('call', USAGE, argv, {
    stdio: { type: 'string' },
    repair: { type: 'string' },
    header: { type: 'string', multiple: true },
    ...OAUTH_OPTIONS,
    root: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    task: { type: 'boolean' },
    json: { type: 'boolean' },
  }, PROCESS_IO);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const json = values.json === true;
  let client: McpClient | undefined;
  try {
    const stdio = values.stdio as string | undefined;
    const [target, tool, argsText, ...extra] = stdio === undefined ? positionals : [undefined, ...positionals];
    if (stdio === undefined && target === undefined) throw new UsageError('missing <target>');
    if (tool === undefined) throw new UsageError('missing <tool>');
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])} (quote the JSON arguments as one argument)`);
    const provider = values.repair as string | undefined;
    if (provider !== undefined && !PROVIDER_NAMES.includes(provider as ProviderName)) throw new UsageError(`--repair must be one of ${PROVIDER_NAMES.join(', ')} (got ${JSON.stringify(provider)})`);
    const timeoutMs = parseTimeoutOption(values.timeout);
    const headers = parseHeaderOptions((values.header as string[] | undefined) ?? []);
    if (stdio !== undefined && Object.keys(headers).length > 0) throw new UsageError('--header applies to URL targets only');
    const oauth = oauthFromOptions(values, 'call');
    if (stdio !== undefined && oauth !== undefined) throw new UsageError('--oauth and --client-credentials apply to URL targets only');

    let args: unknown = {};
    if (provider === undefined && argsText !== undefined) {
      try {
        args = JSON.parse(argsText);
      } catch (error) {
        throw new UsageError(`the arguments are not valid JSON: ${(error as Error).message} (use --repair <provider> to accept model-style arguments)`);
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UsageError(`the arguments must be a JSON object, got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}`);
    }

    const roots = rootsOf((values.root as string[] | undefined) ?? []);
    client = connect(targetOf(target, stdio, headers, oauth), {
      onWarning: (w) => process.stderr.write(`toolwright call: warning: ${w.message}\n`),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(roots !== undefined ? { roots } : {}),
    });
    const stages: Stage[] = [];
    const finish = (result: CallToolResult | undefined, error: McpClientError | undefined, repairs: ArgumentRepair[]): number => {
      if (json) {
        process.stdout.write(`${JSON.stringify({ tool, arguments: args, repairs, stages, ...(result !== undefined ? { result } : {}), ...(error !== undefined ? { error: errorJson(error) } : {}) }, null, 2)}\n`);
      } else {
        printPretty(stages, result, error);
      }
      if (error?.kind === 'task_cancelled') return 130;
      return error !== undefined ? 3 : result?.isError === true ? 1 : 0;
    };

    let repairs: ArgumentRepair[] = [];
    if (provider !== undefined) {
      let listing;
      try {
        listing = await client.listTools();
      } catch (error) {
        if (!(error instanceof McpClientError)) throw error;
        stages.push({ stage: 'repair', status: 'failed', detail: `could not read the tool's schema: ${error.message}` });
        return finish(undefined, error, repairs);
      }
      const descriptor = listing.tools.find((t) => t.name === tool);
      if (descriptor === undefined) {
        const excluded = listing.excluded.find((t) => t.name === tool);
        const error = excluded !== undefined
          ? new McpClientError('tool_excluded', `tool ${JSON.stringify(tool)} was excluded: ${excluded.reason}`)
          : new McpClientError('usage', `tool ${JSON.stringify(tool)} is not in the server's tools/list (${listing.tools.length} tools: ${listing.tools.slice(0, 10).map((t) => t.name).join(', ')}${listing.tools.length > 10 ? ', ...' : ''})`);
        stages.push({ stage: 'repair', status: 'failed', detail: error.message });
        return finish(undefined, error, repairs);
      }
      try {
        const repaired = repairArguments(descriptor, argsText ?? '', provider as ProviderName);
        args = repaired.value;
        repairs = repaired.repairs;
      } catch (error) {
        if (!(error instanceof HostError)) throw error;
        throw new UsageError(`cannot repair the arguments for ${provider}: ${error.message}`);
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UsageError(`the arguments must be a JSON object, even after repair (got ${JSON.stringify(args)})`);
      stages.push({ stage: 'repair', status: 'ok', detail: repairs.length === 0 ? `${provider}: nothing to repair` : `${provider}: ${repairs.map(describeRepair).join('; ')}` });
    } else {
      stages.push({ stage: 'repair', status: 'skipped', detail: 'no --repair' });
    }

    // The listing (spawning a stdio server, paging) is not part of the call's own time.
    const listing = await client.listTools().catch(() => undefined);
    const started = performance.now();
    let result: CallToolResult;
    try {
      result = values.task === true ? await callAsTask(client, tool, args as Record<string, unknown>) : await client.callTool(tool, args as Record<string, unknown>, {
          // A call that waits (an operator's approval, a long motion) says so instead of sitting silent.
          onProgress: (p) => process.stderr.write(`toolwright call: ${describeProgress(p)}\n`),
        });
    } catch (error) {
      if (!(error instanceof McpClientError)) throw error;
      const ms = Math.round(performance.now() - started);
      if (error.kind === 'output_invalid') {
        stages.push({ stage: 'request', status: 'ok', detail: `answered in ${ms} ms over ${client.transport}` });
        stages.push({ stage: 'validation', status: 'failed', detail: error.message });
      } else {
        stages.push({ stage: 'request', status: 'failed', detail: plainMessage(error) });
        stages.push({ stage: 'validation', status: 'skipped', detail: 'no result' });
      }
      return finish(undefined, error, repairs);
    }
    const ms = Math.round(performance.now() - started);
    stages.push({ stage: 'request', status: 'ok', detail: `answered in ${ms} ms over ${client.transport}${result.isError === true ? ' (the tool reported an error)' : ''}` });
    const schema = listing?.tools.find((t) => t.name === tool)?.outputSchema;
    stages.push(
      schema === undefined
        ? { stage: 'validation', status: 'skipped', detail: 'the tool declares no outputSchema' }
        : result.isError === true
          ? { stage: 'validation', status: 'skipped', detail: 'isError result (not bound by the outputSchema)' }
          : { stage: 'validation', status: 'ok', detail: 'structuredContent matches the outputSchema' },
    );
    return finish(result, undefined, repairs);
  } catch (error) {
    if (error instanceof UsageError || (error instanceof McpClientError && error.kind === 'usage')) {
      process.stderr.write(`toolwright call: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await client?.close();
  }
}
