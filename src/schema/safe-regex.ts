import type { RE2JS } from 're2js';
import { loadRe2 } from './lazy-deps.js';

/** What `pattern`/`patternProperties` need from a compiled regular expression. */
export interface PatternMatcher {
  test(input: string): boolean;
  /** Distinct per pattern: Ajv keys compiled patterns by it. */
  toString(): string;
}

/** Why a pattern was refused; the caller adds the schema location. */
export class PatternError extends Error {}

interface Group { quantified: boolean; hasAlternation: boolean; hasRepeat: boolean }

/**
 * Static check for super-linear backtracking: a repeated group whose body itself repeats or
 * alternates (`(a+)+`, `(a|aa)*`, `(\w+\s?)*`), or many unbounded repeats in sequence
 * (polynomial blow-up, `a*a*a*a*b`). False positives only cost speed (the linear engine runs them).
 */
export function isBacktrackingRisk(pattern: string): boolean {
  const stack: Group[] = [{ quantified: false, hasAlternation: false, hasRepeat: false }];
  let unbounded = 0;
  let lastClosed: Group | undefined;
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    let atom: Group | undefined;
    if (ch === '\\') {
      i += 2;
    } else if (ch === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i++;
    } else if (ch === '(') {
      stack.push({ quantified: false, hasAlternation: false, hasRepeat: false });
      i++;
      if (pattern[i] === '?') {
        i++;
        if (pattern[i] === '<' && pattern[i + 1] !== '=' && pattern[i + 1] !== '!') { while (i < pattern.length && pattern[i] !== '>') i++; }
        i++;
      }
      continue;
    } else if (ch === ')') {
      atom = stack.length > 1 ? stack.pop() : undefined;
      i++;
    } else if (ch === '|') {
      stack[stack.length - 1]!.hasAlternation = true;
      i++;
      continue;
    } else {
      i++;
    }
    lastClosed = atom;
    // Quantifier following the atom just read.
    const q = pattern[i];
    let repeats = false;
    let isUnbounded = false;
    if (q === '*' || q === '+') { repeats = true; isUnbounded = true; i++; }
    else if (q === '?') { i++; }
    else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m) {
        const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
        repeats = max > 1;
        isUnbounded = max === Infinity || max > 100;
        i += m[0].length;
      }
    }
    if (repeats) {
      if (pattern[i] === '?') i++;
      if (lastClosed && (lastClosed.hasRepeat || lastClosed.hasAlternation)) return true;
      for (const g of stack) g.hasRepeat = true;
      if (isUnbounded) unbounded++;
    }
    if (atom) for (const g of stack) { g.hasRepeat ||= atom.hasRepeat; }
  }
  return unbounded >= 3;
}

/** ECMAScript syntax → RE2 syntax for the constructs whose meaning differs; throws if RE2 cannot express it. */
function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (next === 'u' && pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i);
        out += `\\x{${pattern.slice(i + 3, end)}}`;
        i = end;
      } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(pattern.slice(i + 2, i + 6))) {
        out += `\\x{${pattern.slice(i + 2, i + 6)}}`;
        i += 5;
      } else if (next === 's' || next === 'S') {
        // ECMAScript \s covers Unicode spaces; RE2's covers ASCII only.
        const body = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
        out += next === 's' ? (inClass ? body : `[${body}]`) : (inClass ? (() => { throw new PatternError('\\S inside a character class'); })() : `[^${body}]`);
        i++;
      } else if (/[1-9k]/.test(next)) {
        throw new PatternError('backreferences cannot run in linear time');
      } else if (next === 'c') {
        throw new PatternError('control escapes (\\c) are not supported by the linear-time engine');
      } else if (next === '/') {
        out += '/';
        i++;
      } else {
        out += ch + next;
        i++;
      }
    } else if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
    } else if (ch === '[') {
      inClass = true;
      out += ch;
      if (pattern[i + 1] === '^') { out += '^'; i++; }
      if (pattern[i + 1] === ']') { out += '\\]'; i++; }
    } else if (ch === '.') {
      out += '[^\\n\\r\\x{2028}\\x{2029}]';
    } else if (ch === '(' && pattern[i + 1] === '?' && /[=!<]/.test(pattern[i + 2] ?? '') && !(pattern[i + 2] === '<' && /[^=!]/.test(pattern[i + 3] ?? ''))) {
      throw new PatternError('lookaround assertions cannot run in linear time');
    } else {
      out += ch;
    }
  }
  return out;
}

const cache = new Map<string, PatternMatcher>();

/**
 * Compile a schema `pattern` (ECMAScript syntax, Unicode mode). Patterns at risk of catastrophic
 * backtracking run on re2js (linear time); others run on V8's RegExp. Throws PatternError when the
 * pattern is invalid, or risky and not expressible in linear time.
 */
export function compilePattern(pattern: string): PatternMatcher {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let native: RegExp;
  try {
    native = new RegExp(pattern, 'u');
  } catch (error) {
    throw new PatternError(`${JSON.stringify(pattern)} is not a valid ECMAScript regular expression (${(error as Error).message})`);
  }
  let matcher: PatternMatcher = native;
  if (isBacktrackingRisk(pattern)) {
    let re2: RE2JS;
    try {
      re2 = loadRe2().RE2JS.compile(toRe2Syntax(pattern));
    } catch (error) {
      const reason = error instanceof PatternError ? error.message : (error as Error).message;
      throw new PatternError(`${JSON.stringify(pattern)} has nested or stacked quantifiers (catastrophic backtracking risk) and cannot run on the linear-time engine: ${reason}; rewrite it without nested repetition`);
    }
    // toString is a cache key for Ajv's compiled code: it must differ per pattern.
    matcher = { test: (input: string) => re2.matcher(input).find(), toString: () => `re2js:/${pattern}/` };
  }
  if (cache.size > 5000) cache.clear();
  cache.set(pattern, matcher);
  return matcher;
}
