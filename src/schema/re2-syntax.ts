import { DefinitionError } from '../errors/toolwright-error.js';

/**
 * ECMAScript (Unicode mode) pattern syntax → RE2 syntax, for running every schema `pattern` on the
 * linear-time engine with ECMAScript's meaning. Translates the constructs whose spelling or meaning
 * differs; throws {@link PatternError} for what RE2 cannot express in linear time (backreferences,
 * lookaround) or at all here (binary Unicode properties, \S inside a class).
 */
export class PatternError extends DefinitionError {
  readonly errorCode = 'pattern' as const;
}

/** ECMAScript General_Category long names and aliases → RE2's short names (or a class body). */
const CATEGORY: Record<string, string> = {
  Letter: 'L', Cased_Letter: 'Lu}\\p{Ll}\\p{Lt', LC: 'Lu}\\p{Ll}\\p{Lt', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm', Other_Letter: 'Lo', Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me', Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe', Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po', Symbol: 'S',
  Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So', Separator: 'Z',
  Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp', Other: 'C', Control: 'Cc', cntrl: 'Cc',
  Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};
const SHORT_CATEGORIES = new Set(['L', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'M', 'Mn', 'Mc', 'Me', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Ps', 'Pe', 'Pi', 'Pf', 'Po', 'S', 'Sm', 'Sc', 'Sk', 'So', 'Z', 'Zs', 'Zl', 'Zp', 'C', 'Cc', 'Cf', 'Cs', 'Co', 'Cn']);
const ANY = '\\x{0}-\\x{10FFFF}';
const SPACE = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';

/** Body of a class (without brackets) for \p{name}, or throws. */
function propertyBody(name: string): string {
  const value = name.replace(/^(General_Category|gc)=/, '');
  if (SHORT_CATEGORIES.has(value)) return `\\p{${value}}`;
  const mapped = CATEGORY[value];
  if (mapped !== undefined) return `\\p{${mapped}}`;
  const script = /^(Script|sc)=([A-Za-z_]+)$/.exec(name);
  if (script) return `\\p{${script[2]}}`;
  if (name === 'Any') return ANY;
  if (name === 'ASCII') return '\\x{0}-\\x{7F}';
  throw new PatternError(`the Unicode property \\p{${name}} is not supported by the linear-time engine`);
}

function hex4(text: string): number | undefined {
  return /^[0-9a-fA-F]{4}$/.test(text) ? Number.parseInt(text, 16) : undefined;
}

/** Translate one pattern (already known to be a valid ECMAScript `u` pattern). */
export function toRe2Syntax(pattern: string): string {
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
      } else if (next === 'u' && hex4(pattern.slice(i + 2, i + 6)) !== undefined) {
        let code = hex4(pattern.slice(i + 2, i + 6))!;
        i += 5;
        // A surrogate pair spelled as two escapes is one code point in Unicode mode.
        const low = pattern.slice(i + 1, i + 3) === '\\u' ? hex4(pattern.slice(i + 3, i + 7)) : undefined;
        if (code >= 0xd800 && code <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
        out += `\\x{${code.toString(16)}}`;
      } else if (next === 's' || next === 'S') {
        // ECMAScript \s covers Unicode spaces; RE2's covers ASCII only.
        if (next === 'S' && inClass) throw new PatternError('\\S inside a character class is not supported by the linear-time engine');
        out += next === 's' ? (inClass ? SPACE : `[${SPACE}]`) : `[^${SPACE}]`;
        i++;
      } else if ((next === 'p' || next === 'P') && pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i);
        const body = propertyBody(pattern.slice(i + 3, end));
        const simple = /^\\p\{[A-Za-z]+\}$/.test(body);
        if (next === 'p') out += inClass || simple ? body : `[${body}]`;
        else if (simple) out += `\\P${body.slice(2)}`;
        else if (inClass) throw new PatternError(`\\P{${pattern.slice(i + 3, end)}} inside a character class is not supported by the linear-time engine`);
        else out += `[^${body}]`;
        i = end;
      } else if (/[1-9k]/.test(next)) {
        throw new PatternError('backreferences cannot run in linear time');
      } else if (next === 'c') {
        out += `\\x{${(pattern.charCodeAt(i + 2) % 32).toString(16)}}`;
        i += 2;
      } else if (next === 'b' && inClass) {
        out += '\\x{8}';
        i++;
      } else if (next === '0') {
        out += '\\x{0}';
        i++;
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
      // [] matches nothing and [^] matches anything in ECMAScript; RE2 reads both as unterminated.
      if (pattern[i + 1] === ']') { out += `[^${ANY}]`; i++; continue; }
      if (pattern[i + 1] === '^' && pattern[i + 2] === ']') { out += `[${ANY}]`; i += 2; continue; }
      inClass = true;
      out += ch;
      if (pattern[i + 1] === '^') { out += '^'; i++; }
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
