/**
 * The bridge's own bearer token, read from a file only its owner can read (the identity work's
 * 0600 token files). A token file that group or others can read or write is refused, as ssh refuses
 * a private key others can read: the token may be known to them, and the bridge would then act with
 * a credential that is no longer the user's alone. The bridge never writes the file; the server that
 * accepts the token creates it.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { assertBearerToken } from '../../server/auth/static-token.js';
import { openToOthers } from '../../server/files/private-file.js';

/** What reading a token file found: the token, or why it cannot be used (a sentence naming the file). */
export type TokenFileRead = { readonly ok: true; readonly path: string; readonly token: string } | { readonly ok: false; readonly path: string; readonly problem: string };

/** Reads the bearer token in `givenPath`, refusing a missing, shared, empty or malformed file. */
export function readTokenFile(givenPath: string): TokenFileRead {
  const path = resolve(givenPath);
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file (the server that accepts the token creates it at its first start)' : (error as Error).message;
    return { ok: false, path, problem: `token file ${path}: ${why}` };
  }
  if (!isFile) return { ok: false, path, problem: `token file ${path}: not a regular file` };
  const mode = openToOthers(path);
  if (mode !== undefined) {
    return { ok: false, path, problem: `token file ${path} can be read or written by group or others (mode ${mode.toString(8).padStart(4, '0')}), so the token may be known to them; refusing to use it. Make it yours alone (chmod 600 ${path}) or let the server create a new one` };
  }
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (error) {
    return { ok: false, path, problem: `token file ${path}: ${(error as Error).message}` };
  }
  try {
    assertBearerToken(token);
  } catch {
    return { ok: false, path, problem: `token file ${path} does not hold a bearer token (32-512 characters of A-Z a-z 0-9 - . _ ~ + /)` };
  }
  return { ok: true, path, token };
}
