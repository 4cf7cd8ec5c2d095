/**
 * One server entry written into a host's JSON (or JSONC) configuration, everything else kept byte
 * for byte: `jsonc-parser` (the parser VS Code itself uses for its settings) finds where the servers
 * object and the entry are, and only that span of text is written (the entry inserted after the last
 * server, or its value replaced), indented like its neighbours; comments, order, formatting and the
 * other servers stay as they were. (The library's own `modify` reformats the neighbouring lines.) A file that does not parse is refused with its line and column, and the
 * edited text is parsed again and compared with the original, so that nothing but the entry changed.
 */
import { isDeepStrictEqual } from 'node:util';
import { findNodeAtLocation, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import type { ConfigEdit } from './config-edit.js';
import { lineColumn } from './config-edit.js';

/** How the file indents, so the new entry looks like its neighbours. */
function styleOf(text: string): { unit: string; eol: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  return { unit: indented === undefined ? '  ' : indented.startsWith('\t') ? '\t' : indented, eol };
}

/** The whitespace that starts the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const lineStart = Math.max(text.lastIndexOf('\n', offset - 1) + 1, 0);
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** Whether `offset` is the first non-blank character of its line. */
function startsLine(text: string, offset: number): boolean {
  const lineStart = Math.max(text.lastIndexOf('\n', offset - 1) + 1, 0);
  return text.slice(lineStart, offset).trim() === '';
}

/** `value` as indented JSON whose first line continues a line indented `indent`. */
function pretty(value: unknown, indent: string, style: { unit: string; eol: string }): string {
  return JSON.stringify(value, null, style.unit).split('\n').join(`${style.eol}${indent}`);
}

/** The offset just past a comma that follows `offset` (across blanks and comments), if one does. */
function commaAfter(text: string, offset: number): number | undefined {
  let i = offset;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++;
    else if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 2;
    else return text[i] === ',' ? i + 1 : undefined;
  }
  return undefined;
}

/**
 * Where the line that holds `offset` ends, when the rest of it is only comments (`"a": 1, // a's
 * note`): such a comment belongs to the member before it, so the new member goes after it. Else `offset`.
 */
function pastTrailingComments(text: string, offset: number): number {
  let i = offset;
  let end = offset;
  while (i < text.length) {
    if (text[i] === ' ' || text[i] === '\t') i++;
    else if (text.startsWith('//', i)) {
      const newline = text.indexOf('\n', i);
      return newline < 0 ? text.length : text[newline - 1] === '\r' ? newline - 1 : newline;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0 || text.slice(i, close).includes('\n')) return end;
      i = end = close + 2;
    } else return end;
  }
  return end;
}

/** `text` with the member `"key": value` added at the end of the object `node`. */
function insertMember(text: string, node: Node, key: string, value: unknown, style: { unit: string; eol: string }): string {
  const base = indentAt(text, node.offset);
  const last = node.children?.at(-1);
  if (last === undefined) {
    const indent = base + style.unit;
    const at = node.offset + 1;
    return `${text.slice(0, at)}${style.eol}${indent}${JSON.stringify(key)}: ${pretty(value, indent, style)}${style.eol}${base}${text.slice(at)}`;
  }
  const indent = startsLine(text, last.offset) ? indentAt(text, last.offset) : base + style.unit;
  const end = last.offset + last.length;
  const comma = commaAfter(text, end);
  // The comma (a new one right after the last value), then the new member after the last member's own trailing comment.
  const at = pastTrailingComments(text, comma ?? end);
  const member = `${style.eol}${indent}${JSON.stringify(key)}: ${pretty(value, indent, style)}`;
  return comma === undefined ? `${text.slice(0, end)},${text.slice(end, at)}${member}${text.slice(at)}` : `${text.slice(0, at)}${member}${text.slice(at)}`;
}

/**
 * The file with `servers[key][name] = entry`: `existing` says an entry of that name was there (it is
 * replaced), `unchanged` that it was already exactly this one. `comments` allows JSONC.
 */
export function editJsonConfig(text: string, serversKey: string, name: string, entry: Record<string, unknown>, comments: boolean): ConfigEdit {
  const source = text.trim() === '' ? '{}\n' : text;
  const options = { allowTrailingComma: comments, disallowComments: !comments };
  const errors: ParseError[] = [];
  const tree = parseTree(source, errors, options);
  if (errors.length > 0 || tree === undefined) {
    const first = errors[0];
    if (first === undefined) return { ok: false, problem: 'holds no JSON value' };
    const { line, column } = lineColumn(source, first.offset);
    return { ok: false, problem: `is not valid ${comments ? 'JSON with comments' : 'JSON'} at line ${line}, column ${column}: ${printParseErrorCode(first.error)}`, line, column };
  }
  if (tree.type !== 'object') return { ok: false, problem: `holds ${tree.type === 'array' ? 'an array' : `a ${tree.type}`} where an object was expected` };
  const servers = findNodeAtLocation(tree, [serversKey]);
  if (servers !== undefined && servers.type !== 'object') {
    const { line, column } = lineColumn(source, servers.offset);
    return { ok: false, problem: `has "${serversKey}" as ${servers.type === 'array' ? 'an array' : `a ${servers.type}`} at line ${line}, column ${column}; it must be an object of servers`, line, column };
  }
  const before = parse(source, [], options) as Record<string, unknown>;
  const previous = (before[serversKey] as Record<string, unknown> | undefined)?.[name];
  const current = servers === undefined ? undefined : findNodeAtLocation(tree, [serversKey, name]);
  const existing = current !== undefined;
  if (existing && isDeepStrictEqual(previous, entry)) return { ok: true, text, existing, unchanged: true };
  const style = styleOf(source);
  const edited = current !== undefined
    ? `${source.slice(0, current.offset)}${pretty(entry, indentAt(source, current.offset), style)}${source.slice(current.offset + current.length)}`
    : servers !== undefined
      ? insertMember(source, servers, name, entry, style)
      : insertMember(source, tree, serversKey, { [name]: entry }, style);
  const after = parse(edited, [], options) as Record<string, unknown>;
  const expected = { ...before, [serversKey]: { ...((before[serversKey] as Record<string, unknown> | undefined) ?? {}), [name]: entry } };
  if (!isDeepStrictEqual(after, expected)) return { ok: false, problem: 'could not be edited without changing more than the entry; edit it by hand' };
  return { ok: true, text: edited, existing, unchanged: false };
}
