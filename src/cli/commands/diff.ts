import { relative } from 'node:path';
import { loadToolTarget, ToolTargetError } from '../load-tool-target.js';
import { parseHeaderOptions, parseTimeoutOption, UsageError } from '../usage-error.js';
import { OAUTH_OPTIONS, oauthFromOptions } from '../oauth-options.js';
import { packageVersion, parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';
import { diffCatalogs } from '../../diff/compare-catalogs.js';
import { DiffTargetError, isGitRevision, loadDiffSide, loadTargetAtRevision } from '../../diff/load-catalog.js';
import type { DiffSide, TargetLoader } from '../../diff/load-catalog.js';
import { buildDiffSarif, formatDiffJson, formatDiffPretty } from '../../diff/report.js';

const USAGE = `Usage: toolwright diff <old> <new> [options]
       toolwright diff <git-revision> <target> [options]
       toolwright diff --pin <lockfile> <new> [options]

<old> and <new> are what lint reads (a module, a saved tools/list JSON file, a server URL), a pin
lockfile (its approved catalog), or REV:path (the file or module as it was at a git revision,
e.g. HEAD~1:tools.json). With a git revision alone, <target> is compared with itself at that revision.

Options:
  --format pretty|json|sarif  output format (default pretty)
  --pin <lockfile>            compare <new> with the catalog approved in this lint --pin lockfile
  --old-stdio "<command>"     the old side is a stdio server command (instead of <old>)
  --new-stdio "<command>"     the new side is a stdio server command (instead of <new>)
  --header "Name: value"      extra HTTP header for URL targets (repeatable)
  --oauth, --client-credentials, --client-id, --scope, --token-cache ...
                              OAuth for URL targets (options as in "toolwright call --help"; docs/auth.md)
  --timeout <ms>              per-request timeout for URL and stdio targets (default 15000)
  -h, --help                  show this help

Every change is classified per tool and JSON pointer as breaking, compatible, model-facing or
unknown (see docs/diff.md). Exit codes: 0 nothing breaks, 1 something breaks, 2 bad usage or an
unreadable target.`;

export type { CommandIo };

/** One line for `toolwright --help`. */
export const summary = 'classify the changes between two tool catalogs (breaking, compatible, model-facing)';

/**
 * `toolwright diff`: compares two catalogs. Returns the exit code: 0 nothing breaks, 1 something
 * breaks, 2 bad usage or an unreadable target.
 */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const { stdout, stderr } = io;
  const parsed = parseCommandArgs('diff', USAGE, argv, {
    format: { type: 'string', default: 'pretty' },
    pin: { type: 'string' },
    'old-stdio': { type: 'string' },
    'new-stdio': { type: 'string' },
    header: { type: 'string', multiple: true, default: [] },
    ...OAUTH_OPTIONS,
    timeout: { type: 'string' },
  }, io);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  try {
    const format = values.format as string;
    if (format !== 'pretty' && format !== 'json' && format !== 'sarif') throw new UsageError(`--format must be pretty, json or sarif; got ${JSON.stringify(format)}`);
    const timeoutMs = parseTimeoutOption(values.timeout);
    const headers = parseHeaderOptions(values.header as string[]);
    const oauth = oauthFromOptions(values, 'diff');
    const load: TargetLoader = (target, options) => loadToolTarget(target, { ...options, headers, timeoutMs, ...(oauth !== undefined ? { oauth } : {}) });

    const oldStdio = values['old-stdio'] as string | undefined;
    const newStdio = values['new-stdio'] as string | undefined;
    const pin = values.pin as string | undefined;
    if (pin !== undefined && oldStdio !== undefined) throw new UsageError('give the old side once: --pin or --old-stdio, not both');
    const oldGiven = pin !== undefined || oldStdio !== undefined;
    const wanted = (oldGiven ? 0 : 1) + (newStdio !== undefined ? 0 : 1);
    if (positionals.length !== wanted) {
      throw new UsageError(positionals.length < wanted
        ? `missing ${wanted - positionals.length === 2 ? '<old> and <new>' : oldGiven ? '<new>' : newStdio !== undefined ? '<old>' : '<new>'}`
        : `expected ${wanted} target${wanted === 1 ? '' : 's'}, got ${positionals.length}: ${positionals.join(' ')}`);
    }
    const queue = [...positionals];
    const oldText = oldGiven ? undefined : queue.shift()!;
    const newText = newStdio ?? queue.shift()!;

    const oldIsRevision = oldText !== undefined && (await isGitRevision(oldText));
    // Checked before anything is loaded, so a bad pairing never spawns or contacts a server.
    if (oldIsRevision && (newStdio !== undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(newText))) {
      throw new UsageError(`${oldText}: a git revision can only be compared with a file or module target, not ${newStdio !== undefined ? 'a stdio command' : 'a URL'}`);
    }
    const after: DiffSide = await loadDiffSide(newText, load, { stdio: newStdio !== undefined });
    let before: DiffSide;
    if (pin !== undefined) before = await loadDiffSide(pin, load);
    else if (oldStdio !== undefined) before = await loadDiffSide(oldStdio, load, { stdio: true });
    else if (oldIsRevision) before = await loadTargetAtRevision(oldText!, newText, load);
    else before = await loadDiffSide(oldText!, load);

    const diff = diffCatalogs(before.tools, after.tools);
    if (format === 'json') {
      stdout.write(formatDiffJson(diff, { before: before.label, after: after.label }));
    } else if (format === 'sarif') {
      const uri = newStdio !== undefined ? `stdio:${newStdio}` : /^[a-z][a-z0-9+.-]*:\/\//i.test(newText) ? newText : relative(process.cwd(), newText).split('\\').join('/') || newText;
      stdout.write(`${JSON.stringify(buildDiffSarif(diff, uri, await packageVersion()), null, 2)}\n`);
    } else {
      const color = Boolean(stdout.isTTY) && process.env.NO_COLOR === undefined;
      stdout.write(formatDiffPretty(diff, { color, before: before.label, after: after.label }));
    }
    return diff.counts.breaking > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ToolTargetError || error instanceof DiffTargetError) {
      stderr.write(`toolwright diff: ${error.message}\n`);
      if (error instanceof UsageError) stderr.write('Run "toolwright diff --help" for usage.\n');
      return 2;
    }
    throw error;
  }
}
