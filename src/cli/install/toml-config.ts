/**
 * One server table written into a TOML configuration (Codex's `config.toml`), everything else kept
 * byte for byte, comments included: the file is parsed with `smol-toml` only to check it and to find
 * out whether the entry exists; the edit itself is textual (a new `[mcp_servers.<name>]` table
 * appended at the end, or the existing table's lines replaced), since no TOML library writes a
 * document back with its comments and layout intact. The edited text is parsed again and compared
 * with the original, so a file the textual edit would have changed elsewhere (a table written
 * inline, dotted keys, a header look-alike inside a multi-line string) is refused, unchanged.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse, TomlError } from 'smol-toml';
import type { ConfigEdit } from './config-edit.js';

/** A TOML key: bare when it can be, else a basic string. */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/**
 * A TOML basic string. JSON's string escapes (`\"`, `\\`, `\n`, `\t`, `\uXXXX`, ...) are all TOML
 * escapes too, and JSON.stringify leaves other characters as they are, which TOML allows.
 */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** The `[table]` text of one entry (string and string-array values: what an MCP stdio entry holds). */
function tableText(serversKey: string, name: string, entry: Record<string, unknown>, eol: string): string {
  const lines = [`[${serversKey}.${tomlKey(name)}]`];
  for (const [key, value] of Object.entries(entry)) {
    const text = Array.isArray(value) ? `[${value.map((v) => tomlString(String(v))).join(', ')}]` : tomlString(String(value));
    lines.push(`${tomlKey(key)} = ${text}`);
  }
  return `${lines.join(eol)}${eol}`;
}

/** The forms a header of table `path` may be written in: `[a.b]`, `[ a . "b" ]`, ... */
function headerPattern(parts: readonly string[], subtables: boolean): RegExp {
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const part = (key: string): string => `(?:${escape(key)}|"${escape(key)}"|'${escape(key)}')`;
  const path = parts.map(part).join('\\s*\\.\\s*');
  return new RegExp(`^\\s*\\[\\[?\\s*${path}${subtables ? '(?:\\s*\\.[^\\]]*)?' : ''}\\s*\\]\\]?\\s*(?:#.*)?$`);
}

/** Lines of a table: from its header to the next header that is not one of its subtables (trailing blanks and comments left to what follows). */
function tableRange(lines: readonly string[], serversKey: string, name: string): { from: number; to: number } | undefined {
  const own = headerPattern([serversKey, name], false);
  const sub = headerPattern([serversKey, name], true);
  const from = lines.findIndex((line) => own.test(line));
  if (from < 0) return undefined;
  let to = from + 1;
  while (to < lines.length && !(/^\s*\[/.test(lines[to]!) && !sub.test(lines[to]!))) to++;
  while (to > from + 1 && /^\s*(#.*)?$/.test(lines[to - 1]!)) to--;
  return { from, to };
}

/** The data of a TOML text, or where it breaks. */
function parsed(text: string): { ok: true; data: Record<string, unknown> } | { ok: false; problem: string; line: number; column: number } {
  try {
    return { ok: true, data: parse(text) as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    return { ok: false, problem: `is not valid TOML at line ${error.line}, column ${error.column}: ${reason}`, line: error.line, column: error.column };
  }
}

/** Plain JSON of parsed TOML (its tables have no prototype), so two documents compare by content. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The file with `[serversKey.name]` = `entry`; see {@link ConfigEdit}. */
export function editTomlConfig(text: string, serversKey: string, name: string, entry: Record<string, unknown>): ConfigEdit {
  const before = parsed(text);
  if (!before.ok) return before;
  const servers = before.data[serversKey];
  if (servers !== undefined && !isTable(servers)) return { ok: false, problem: `has "${serversKey}" as something other than a table of servers` };
  const existing = isTable(servers) && servers[name] !== undefined;
  if (existing && isDeepStrictEqual(plain(servers[name]), plain(entry))) return { ok: true, text, existing, unchanged: true };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const table = tableText(serversKey, name, entry, eol);
  let edited: string;
  if (existing) {
    const lines = text.split(eol);
    const range = tableRange(lines, serversKey, name);
    if (range === undefined) return { ok: false, problem: `defines ${serversKey}.${name} in a form this command does not edit (not a [${serversKey}.${tomlKey(name)}] table); edit it by hand` };
    edited = [...lines.slice(0, range.from), table.slice(0, -eol.length), ...lines.slice(range.to)].join(eol);
  } else {
    const separator = text === '' ? '' : text.endsWith(eol) ? eol : `${eol}${eol}`;
    edited = `${text}${separator}${table}`;
  }
  const after = parsed(edited);
  const expected = { ...before.data, [serversKey]: { ...(isTable(servers) ? servers : {}), [name]: entry } };
  if (!after.ok || !isDeepStrictEqual(plain(after.data), plain(expected))) return { ok: false, problem: `could not be edited without changing more than [${serversKey}.${tomlKey(name)}]; edit it by hand` };
  return { ok: true, text: edited, existing, unchanged: false };
}
