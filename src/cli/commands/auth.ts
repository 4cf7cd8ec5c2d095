/** `toolwright auth list | clear [<server-url>]`: the OAuth token cache of the CLI. */
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';
import { defaultTokenCachePath, fileTokenStore } from '../../client/index.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: toolwright auth list [--token-cache <file>] [--json]
       toolwright auth clear [<server-url>] [--token-cache <file>]

The OAuth tokens and client registrations that --oauth and --client-credentials keep (default
${defaultTokenCachePath()}, mode 0600). "list" shows, per server, the issuer, client, scopes and
expiry (never a token); "clear" forgets the tokens of one server, or every token and registration.`;

/** One line for `toolwright --help`. */
export const summary = 'list or clear the OAuth tokens the CLI keeps';

function expiry(expiresAt: number | undefined): string {
  if (expiresAt === undefined) return 'no expiry given';
  const seconds = Math.round((expiresAt - Date.now()) / 1000);
  return seconds <= 0 ? `expired ${-seconds} s ago` : `expires in ${seconds} s`;
}

export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const parsed = parseCommandArgs('auth', USAGE, argv, { 'token-cache': { type: 'string' }, json: { type: 'boolean' } }, io);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [action, server, ...extra] = positionals;
  try {
    if (action !== 'list' && action !== 'clear') throw new UsageError(`expected "list" or "clear", got ${JSON.stringify(action ?? '')}`);
    if (extra.length > 0 || (action === 'list' && server !== undefined)) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0] ?? server)}`);
    const store = fileTokenStore((values['token-cache'] as string | undefined) ?? defaultTokenCachePath());
    if (action === 'clear') {
      const count = await store.clear(server);
      io.stdout.write(server === undefined ? `cleared ${count} entries\n` : count === 0 ? `no tokens for ${server}\n` : `cleared the tokens for ${server}\n`);
      return 0;
    }
    const { tokens, clients } = await store.list();
    const rows = tokens.map((t) => ({ server: t.server, issuer: t.issuer, clientId: t.clientId, scopes: t.scopes, refreshable: t.refreshToken !== undefined, expires: expiry(t.expiresAt) }));
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify({ tokens: rows, clients: clients.map((c) => ({ issuer: c.issuer, clientId: c.clientId, authMethod: c.authMethod })) }, null, 2)}\n`);
      return 0;
    }
    if (rows.length === 0 && clients.length === 0) io.stdout.write('no tokens or registrations kept\n');
    for (const row of rows) io.stdout.write(`${row.server}\n  issuer ${row.issuer}, client ${row.clientId}, scopes ${row.scopes.join(' ') || '(none)'}, ${row.expires}${row.refreshable ? ', refreshable' : ''}\n`);
    for (const client of clients) io.stdout.write(`registration at ${client.issuer}: client ${client.clientId} (${client.authMethod})\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`toolwright auth: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    io.stderr.write(`toolwright auth: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
