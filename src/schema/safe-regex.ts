import { loadRe2 } from './lazy-deps.js';
import { PatternError, toRe2Syntax } from './re2-syntax.js';

/** What `pattern`/`patternProperties` need from a compiled regular expression. */
export interface PatternMatcher {
  /** True when the pattern matches somewhere in `input` (ECMA-262 `test` semantics, linear time). */
  test(input: string): boolean;
  /** Distinct per pattern: Ajv keys compiled patterns by it. */
  toString(): string;
}

export { PatternError };

interface Group { quantified: boolean; hasAlternation: boolean; hasRepeat: boolean }

/**
 * Static check for super-linear backtracking: a repeated group whose body itself repeats or
 * alternates (`(a+)+`, `(a|aa)*`, `(\w+\s?)*`), or many unbounded repeats in sequence
 * (`a*a*a*a*b`). Informational (the linter's advice): it cannot see every polynomial case
 * (`^\d+\d+$` is quadratic on a backtracking engine), which is why {@link compilePattern} runs
 * every pattern on the linear-time engine rather than trusting it.
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

/** One single-character atom: a literal, an escape of a class or a punctuator, a class, or ".". */
const ATOM = String.raw`(?:[^\\^$.|?*+()[\]{}]|\\[dDwWsS]|\\[\\^$.|?*+()[\]{}/-]|\[\^?(?:[^\\\]\[]|\\[dDwWsS\\\]\[^-])+\]|\.)`;
const QUANTIFIER = String.raw`(?:[?*+]|\{\d+(?:,\d*)?\})?`;
const ATOM_WITH_QUANTIFIER = new RegExp(String.raw`${ATOM}(${QUANTIFIER})`, 'g');
const SIMPLE_PATTERN = new RegExp(String.raw`^\^(?:${ATOM}${QUANTIFIER})*\$?$`);

/**
 * Whether V8's backtracking engine runs `pattern` in linear time, so it may run natively: anchored
 * at the start (one start position), a sequence of single-character atoms, and at most one of them
 * with a variable count (then backtracking retries only that atom's count, each time against a
 * fixed-length rest). `^[A-Za-z0-9_-]{1,40}$` and `^\d{4}-\d{2}-\d{2}$` are; `^a*a*$` is not.
 */
export function isLinearOnBacktracking(pattern: string): boolean {
  if (!SIMPLE_PATTERN.test(pattern)) return false;
  let variable = 0;
  for (const [, quantifier] of pattern.slice(1).matchAll(ATOM_WITH_QUANTIFIER)) {
    if (quantifier !== '' && !/^\{(\d+)\}$/.test(quantifier!) && !/^\{(\d+),\1\}$/.test(quantifier!)) variable++;
  }
  return variable <= 1;
}

const cache = new Map<string, PatternMatcher>();

/**
 * Compile a schema `pattern` (ECMAScript syntax, Unicode mode). Every pattern the linear-time
 * engine (re2js) can express runs there, so matching time is linear in the input whatever the
 * pattern: nested `(a+)+`, polynomial `^\d+\d+$`, stacked `a{0,100}a{0,100}...`. Only patterns it
 * cannot express (backreferences, lookaround, a few Unicode properties) run on V8's RegExp, and
 * only when {@link isBacktrackingRisk} finds no nested or stacked repetition in them (real tool
 * schemas use `^(?=.*[0-9]).{8,}$`); the rest are refused. Throws PatternError when the pattern is
 * invalid, or refused.
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
  let matcher: PatternMatcher;
  // Provably linear on V8's engine: native, ~10x faster than re2js on short strings.
  if (isLinearOnBacktracking(pattern)) matcher = native;
  else try {
    const re2 = loadRe2().RE2JS.compile(toRe2Syntax(pattern));
    // toString is a cache key for Ajv's compiled code: it must differ per pattern.
    // test() is re2js's match-anywhere path without a Matcher object per call (same answer as matcher().find()).
    matcher = { test: (input: string) => re2.test(input), toString: () => `re2js:/${pattern}/` };
  } catch (error) {
    if (isBacktrackingRisk(pattern)) {
      throw new PatternError(`${JSON.stringify(pattern)} has nested or stacked quantifiers (catastrophic backtracking risk) and cannot run on the linear-time engine: ${(error as Error).message}; rewrite it without nested repetition`);
    }
    matcher = native;
  }
  if (cache.size > 5000) cache.clear();
  cache.set(pattern, matcher);
  return matcher;
}
