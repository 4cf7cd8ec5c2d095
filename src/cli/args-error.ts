/**
 * Turns `util.parseArgs` errors into one plain sentence with a "did you mean" (issue 33 item 7):
 * Node's own text names the `--` escape with an unbalanced quote and never the option meant.
 */
import type { ParseArgsConfig } from 'node:util';
import { closestWord } from '../text/similar-names.js';

/** The `options` of a `util.parseArgs` configuration. */
export type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>;
type Options = ParseArgsOptions;

/**
 * The sentence for a `util.parseArgs` error, e.g. "unknown option --prvider; did you mean --provider? (...)",
 * "option --port needs a value (--port <value>)"; errors that are not `parseArgs`' own keep their
 * message. Exported so that a command line of its own (the robot arm's `npm start`) answers a
 * mistyped flag the way `toolwright` does.
 *
 * @param error - what `parseArgs` threw.
 * @param options - the `options` given to `parseArgs`: the known flags a "did you mean" is chosen from.
 * @example
 * ```ts
 * import { parseArgs } from 'node:util';
 * import { explainArgsError } from 'toolwright';
 *
 * const options = { port: { type: 'string' } } as const;
 * try {
 *   parseArgs({ args: ['--prot', '3001'], options });
 * } catch (error) {
 *   console.error(explainArgsError(error, options)); // unknown option --prot; did you mean --port? (...)
 * }
 * ```
 */
export function explainArgsError(error: unknown, options: Options): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (flag === undefined) return message;
    const guess = closestOption(flag, options);
    const escape = `(a value starting with "-" goes after "--", e.g. -- ${flag})`;
    return `unknown option ${flag}${guess !== undefined ? `; did you mean ${guess}?` : ''} ${escape}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // Node names an option with a short alias as '-f, --format'; the long name is the one to write.
    const missing = /^Option '(?:-\w, )?(--?[^ ']+)(?: <value>)?' argument missing/.exec(message);
    if (missing !== null) return `option ${missing[1]} needs a value (${missing[1]} <value>)`;
    const unwanted = /^Option '(?:-\w, )?(--?[^ ']+)' does not take an argument/.exec(message);
    if (unwanted !== null) return `option ${unwanted[1]} is a switch and takes no value (write ${unwanted[1]} alone)`;
  }
  return message;
}

/** The known option nearest to `flag` (`--name`, or `-x` for a short one), when near enough to be a typo or a case slip. */
function closestOption(flag: string, options: Options): string | undefined {
  if (!flag.startsWith('--') && flag.length === 2) {
    const short = Object.values(options).find((option) => option.short?.toLowerCase() === flag[1]!.toLowerCase())?.short;
    return short !== undefined ? `-${short}` : undefined;
  }
  const name = closestWord(flag.replace(/^-+/, ''), Object.keys(options));
  return name !== undefined ? `--${name}` : undefined;
}
