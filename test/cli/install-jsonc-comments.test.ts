/**
 * `toolwright install` into a JSONC file (VS Code's mcp.json, issue 33): a comment at the end of the
 * last entry's line belongs to that entry and stays on its line; the new entry goes after it, whether
 * the last entry has a comma or not, and with CRLF line ends. A comment on a line of its own, and
 * one that opens on the line and ends below it, are not moved.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { editJsonConfig } from '../../src/cli/install/json-config.js';

const ENTRY = { type: 'stdio', command: 'toolwright' };

function edited(text: string): string {
  const result = editJsonConfig(text, 'servers', 'robot-arm', ENTRY, true);
  assert.equal(result.ok, true, JSON.stringify(result));
  return (result as { text: string }).text;
}

/** A file whose "servers" object holds `members` (written as in the file, 4 spaces in), with `eol` line ends. */
const file = (members: string, eol = '\n'): string => `{${eol}  "servers": {${eol}${members}  }${eol}}${eol}`;
const NEW = (eol = '\n'): string => `    "robot-arm": {${eol}      "type": "stdio",${eol}      "command": "toolwright"${eol}    }${eol}`;

it('a trailing // comment after the last entry\'s comma stays with that entry', () => {
  assert.equal(edited(file('    "search": { "url": "https://s" }, // the team\'s search\n')), file(`    "search": { "url": "https://s" }, // the team's search\n${NEW()}`));
});

it('a trailing comment after the last entry without a comma: the comma goes after the value, the comment stays', () => {
  assert.equal(edited(file('    "search": { "url": "https://s" } // the team\'s search\n')), file(`    "search": { "url": "https://s" }, // the team's search\n${NEW()}`));
  assert.equal(edited(file('    "search": 1 /* a */ /* b */\n')), file(`    "search": 1, /* a */ /* b */\n${NEW()}`));
});

it('CRLF: the comment keeps its line, the new entry comes after it', () => {
  assert.equal(edited(file('    "search": 1, // note\r\n', '\r\n')), file(`    "search": 1, // note\r\n${NEW('\r\n')}`, '\r\n'));
});

it('a comment on its own line, or one that ends on a later line, is not carried', () => {
  assert.equal(edited(file('    "search": 1,\n    // next\n')), file(`    "search": 1,\n${NEW().trimEnd()}\n    // next\n`));
  assert.equal(edited(file('    "search": 1, /* spans\n    lines */\n')), file(`    "search": 1,\n${NEW().trimEnd()} /* spans\n    lines */\n`));
});
