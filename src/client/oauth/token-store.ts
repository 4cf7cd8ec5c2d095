/**
 * Where the OAuth client keeps what it obtained: client registrations (per issuer, never reused at
 * another issuer) and tokens (per MCP server URL). In memory by default; `fileTokenStore` keeps
 * them in a JSON file readable by its owner only (0600, folder 0700), which the CLI uses and
 * `toolwright auth list | clear` shows and empties.
 */
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** A client registration at one issuer. */
export interface StoredClient {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** How the client authenticates at the token endpoint. */
  authMethod: 'none' | 'client_secret_basic' | 'client_secret_post';
  /** The redirect URI it was registered with (dynamic registration). */
  redirectUri?: string;
}

/** Tokens for one MCP server. */
export interface StoredToken {
  /** The MCP server URL the token is used for. */
  server: string;
  /** The resource (RFC 8707) the token was issued for, exactly as the server's metadata names it. */
  resource: string;
  issuer: string;
  clientId: string;
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms; absent when the issuer gave no `expires_in`. */
  expiresAt?: number;
  /** The scopes asked for (a later step-up asks for these and more). */
  scopes: string[];
  obtainedAt: number;
}

/** Storage behind the OAuth client. */
export interface TokenStore {
  /** The token kept for the MCP server at `server`, if any. */
  token(server: string): Promise<StoredToken | undefined>;
  /** Keeps a token (replacing the one for the same server). */
  saveToken(token: StoredToken): Promise<void>;
  /** The client registration kept for `issuer`, if any. */
  client(issuer: string): Promise<StoredClient | undefined>;
  /** Keeps a client registration (replacing the one for the same issuer). */
  saveClient(client: StoredClient): Promise<void>;
  /** Everything kept (for listing). */
  list(): Promise<{ tokens: StoredToken[]; clients: StoredClient[] }>;
  /** Forgets the tokens of `server` (all tokens and registrations when omitted); how many entries went. */
  clear(server?: string): Promise<number>;
}

interface StoreData {
  version: 1;
  tokens: Record<string, StoredToken>;
  clients: Record<string, StoredClient>;
}

const empty = (): StoreData => ({ version: 1, tokens: {}, clients: {} });

function clearIn(data: StoreData, server: string | undefined): number {
  if (server === undefined) {
    const count = Object.keys(data.tokens).length + Object.keys(data.clients).length;
    data.tokens = {};
    data.clients = {};
    return count;
  }
  if (data.tokens[server] === undefined) return 0;
  delete data.tokens[server];
  return 1;
}

/** A store that lives as long as the process (the default of `toolwright/client`). */
export function memoryTokenStore(): TokenStore {
  const data = empty();
  return {
    token: async (server) => data.tokens[server],
    saveToken: async (token) => void (data.tokens[token.server] = token),
    client: async (issuer) => data.clients[issuer],
    saveClient: async (client) => void (data.clients[client.issuer] = client),
    list: async () => ({ tokens: Object.values(data.tokens), clients: Object.values(data.clients) }),
    clear: async (server) => clearIn(data, server),
  };
}

/** The CLI's cache file: `$TOOLWRIGHT_TOKEN_CACHE`, else `$XDG_CACHE_HOME/toolwright/oauth-tokens.json`, else `~/.cache/toolwright/oauth-tokens.json`. */
export function defaultTokenCachePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLWRIGHT_TOKEN_CACHE !== undefined && env.TOOLWRIGHT_TOKEN_CACHE !== '') return env.TOOLWRIGHT_TOKEN_CACHE;
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'toolwright', 'oauth-tokens.json');
}

/** A store kept in `path` (mode 0600). A file that others can read is refused, not used. */
export function fileTokenStore(path: string = defaultTokenCachePath()): TokenStore {
  // One read-modify-write at a time within this process.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  async function load(): Promise<StoreData> {
    let text: string;
    try {
      const info = await stat(path);
      if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
        throw new Error(`the token cache ${path} is readable by other users (mode ${(info.mode & 0o777).toString(8)}); run: chmod 600 ${path}`);
      }
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
      throw error;
    }
    try {
      const data = JSON.parse(text) as StoreData;
      if (data.version !== 1 || typeof data.tokens !== 'object' || typeof data.clients !== 'object') throw new Error('unknown format');
      return data;
    } catch (error) {
      throw new Error(`the token cache ${path} is not a Toolwright token cache (${error instanceof Error ? error.message : String(error)}); remove it or run: toolwright auth clear`);
    }
  }
  async function save(data: StoreData): Promise<void> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  }
  const update = (change: (data: StoreData) => void): Promise<void> => serial(async () => {
    const data = await load();
    change(data);
    await save(data);
  });
  return {
    token: (server) => serial(async () => (await load()).tokens[server]),
    saveToken: (token) => update((data) => void (data.tokens[token.server] = token)),
    client: (issuer) => serial(async () => (await load()).clients[issuer]),
    saveClient: (client) => update((data) => void (data.clients[client.issuer] = client)),
    list: () => serial(async () => {
      const data = await load();
      return { tokens: Object.values(data.tokens), clients: Object.values(data.clients) };
    }),
    clear: (server) => serial(async () => {
      const data = await load();
      const count = clearIn(data, server);
      if (count > 0) await save(data);
      return count;
    }),
  };
}
