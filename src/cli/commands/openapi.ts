import { OpenApiImportError, toolsFromOpenApi } from '../../compose/openapi/index.js';
import { PROVIDER_NAMES } from '../../host/index.js';
import type { ProviderName } from '../../host/index.js';
import { formatPretty } from '../../lint/reporters/pretty.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';

const USAGE = `Usage: toolwright openapi <document.json> [options]

Imports an OpenAPI 3.0 / 3.1 document as tools (docs/compose.md, "OpenAPI") without serving them:
prints each operation's tool name, every problem of the import, and the linter's findings.

Options:
  --provider <list>  profiles the names must fit (comma-separated: ${PROVIDER_NAMES.join(', ')}; default all)
  --json             machine-readable output: { operations, problems, lint }
  -h, --help         show this help

Exit codes: 0 imported (problems and findings are reported, not failures), 1 some operation was
skipped, 2 bad usage or a document that cannot be imported.`;

/** One line for `toolwright --help`. */
export const summary = 'import an OpenAPI document as tools and report names, problems and lint findings';

/** Runs `toolwright openapi`; resolves to the exit code. */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const parsed = parseCommandArgs('openapi', USAGE, argv, { provider: { type: 'string' }, json: { type: 'boolean', default: false } }, io);
  if (typeof parsed === 'number') return parsed;
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    io.stderr.write(`toolwright openapi: give exactly one document\n\n${USAGE}\n`);
    return 2;
  }
  const providerList = parsed.values.provider;
  const providers = typeof providerList === 'string' ? providerList.split(',').map((name) => name.trim()) as ProviderName[] : undefined;
  let result;
  try {
    // No calls are made here, so a placeholder base URL stands in when the document has none.
    result = await toolsFromOpenApi(file, { ...(providers ? { providers } : {}), baseUrl: 'http://127.0.0.1/' });
  } catch (error) {
    if (!(error instanceof OpenApiImportError)) throw error;
    io.stderr.write(`toolwright openapi: ${error.code}: ${error.message}\n`);
    return 2;
  }
  const skipped = result.problems.some((problem) => problem.severity === 'skipped');
  if (parsed.values.json === true) {
    io.stdout.write(`${JSON.stringify({ operations: result.operations, problems: result.problems, lint: result.lint }, null, 2)}\n`);
    return skipped ? 1 : 0;
  }
  const lines = [`${result.operations.length} tools from ${file}`];
  for (const op of result.operations) lines.push(`  ${op.tool.padEnd(40)} ${op.method} ${op.path}`);
  lines.push('', `${result.problems.length} problems`);
  for (const problem of result.problems) lines.push(`  ${problem.severity.padEnd(8)} ${problem.code.padEnd(22)} ${problem.operation}: ${problem.message}`);
  lines.push('', formatPretty(result.lint, { color: false, target: file }));
  io.stdout.write(`${lines.join('\n')}\n`);
  return skipped ? 1 : 0;
}
