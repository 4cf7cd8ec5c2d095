import { runStdioRelay, readTokenFile } from '../../compose/relay/index.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';

/** One line for `toolwright --help`. */
export const summary = 'relay a desktop host (stdio) to a running server\'s /mcp, with its own token';

const HELP = `Usage: toolwright bridge <url> [--token-file <file>]

Relays a stdio host (a desktop app that starts MCP servers as child processes) to a server that is
already running, at its Streamable HTTP endpoint <url>: the proxy's relay mode, with no pipeline of
its own (docs/compose.md, "Relay"). Every JSON-RPC message goes through as the host wrote it, in
whichever protocol era the host speaks (2025 initialize sessions or 2026-07-28), and the answers,
notifications, progress, cancellations and input requests come back. The server authorizes,
approves and audits each call as for any client; the host's own initialize, so its clientInfo and
capabilities, reach it unchanged. The bridge authenticates with its own bearer token and never
forwards anything of the host's but the messages.

Put it in a host's configuration with \`toolwright install <host>\` (see its --help).

Options:
  --token-file <file>    The bridge's bearer token, sent as Authorization: Bearer (a 0600 file;
                         one that group or others can read is refused). Read again when the
                         server answers 401, so a server restarted with a new token is followed.
                         Without it no token is sent (a server started without authorization)
  -h, --help             Show this help

When the server cannot be reached, each request gets a JSON-RPC error naming the URL and the bridge
keeps running; the next message tries again. A 2025 session the server forgot (it restarted) is
opened again with the host's initialize; its GET stream is reopened at most 5 times in a row.

Exit codes: 0 when the host closes stdin (or on SIGTERM/SIGINT), 2 for bad usage or an unusable
token file.`;

/** `toolwright bridge`: see {@link HELP}. */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const parsed = parseCommandArgs('bridge', HELP, argv, { 'token-file': { type: 'string' } }, io);
  if (typeof parsed === 'number') return parsed;
  const [target, ...extra] = parsed.positionals;
  const usage = (problem: string): number => {
    io.stderr.write(`toolwright bridge: ${problem}\n\n${HELP}\n`);
    return 2;
  };
  if (target === undefined) return usage('the server URL is required (e.g. http://127.0.0.1:3000/mcp)');
  if (extra.length > 0) return usage(`unexpected argument ${JSON.stringify(extra[0])} (one URL)`);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return usage(`${JSON.stringify(target)} is not a URL (e.g. http://127.0.0.1:3000/mcp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return usage(`the URL must be http: or https:, got ${url.protocol}`);
  const tokenFile = parsed.values['token-file'] as string | undefined;
  let token: string | undefined;
  if (tokenFile !== undefined) {
    const read = readTokenFile(tokenFile);
    if (!read.ok) {
      io.stderr.write(`toolwright bridge: ${read.problem}\n`);
      return 2;
    }
    token = read.token;
  }
  // stdout carries the protocol: everything the bridge says goes to stderr, which hosts keep in their logs.
  const log = (line: string): void => void io.stderr.write(`toolwright bridge: ${line}\n`);
  const running = runStdioRelay({ url, ...(token !== undefined ? { token } : {}), ...(tokenFile !== undefined ? { tokenFile } : {}), log });
  log(`relaying stdio to ${url.href}${tokenFile !== undefined ? ` with the token in ${tokenFile}` : ' without a token'}`);
  const onSignal = (): void => void running.close();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    await running.closed;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
  return 0;
}
