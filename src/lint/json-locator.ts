import { escapePointerToken } from '../schema/index.js';

/** 1-based line and column of a JSON value in its source text. */
export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * Maps every JSON pointer of a document to where its value starts in the text, so findings on a
 * saved `tools/list` file can point at a line (SARIF regions, editor links). Returns an empty map
 * for text that is not JSON; locating is a convenience, never a reason to fail.
 */
export function locateJsonPointers(text: string): Map<string, SourcePosition> {
  const positions = new Map<string, SourcePosition>();
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const fail = (): never => { throw new SyntaxError('not JSON'); };
  const skip = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 10) { line++; i++; lineStart = i; } else if (c === 32 || c === 9 || c === 13) i++; else break;
    }
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (pointer: string): void => {
    skip();
    positions.set(pointer, { line, column: i - lineStart + 1 });
    const c = text[i];
    if (c === '{') {
      i++;
      skip();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        skip();
        if (text[i] !== '"') fail();
        const key = readString();
        skip();
        if (text[i] !== ':') fail();
        i++;
        value(`${pointer}/${escapePointerToken(key)}`);
        skip();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        fail();
      }
    } else if (c === '[') {
      i++;
      skip();
      if (text[i] === ']') { i++; return; }
      for (let index = 0; ; index++) {
        value(`${pointer}/${index}`);
        skip();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        fail();
      }
    } else if (c === '"') {
      readString();
    } else {
      const match = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
      if (!match) fail();
      i += match![0].length;
    }
  };
  try {
    value('');
  } catch {
    return new Map();
  }
  return positions;
}

/**
 * The nearest located position for a pointer: the pointer itself, else its closest located
 * ancestor (a finding about a missing keyword points at the schema that lacks it).
 */
export function nearestPosition(positions: ReadonlyMap<string, SourcePosition>, pointer: string): SourcePosition | undefined {
  let current = pointer;
  for (;;) {
    const found = positions.get(current);
    if (found !== undefined) return found;
    if (current === '') return undefined;
    current = current.slice(0, current.lastIndexOf('/'));
  }
}
