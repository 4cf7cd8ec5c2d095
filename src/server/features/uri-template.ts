/**
 * Matching of RFC 6570 URI templates against concrete URIs, for `resources/read` of template
 * resources. Supported: simple `{var}` (one path segment, percent-decoded) and reserved `{+var}`
 * (anything, including `/`). Other operators are refused when the template is defined, so a
 * template never silently fails to match.
 */

/** A compiled URI template. */
export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  /** The variables of `uri`, or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined;
}

const EXPRESSION = /\{([^{}]*)\}/g;
const VARNAME = /^[A-Za-z0-9_]+$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Compiles `template`.
 * @throws TypeError naming the expression when it uses an unsupported operator or a bad name.
 */
export function compileUriTemplate(template: string): UriTemplate {
  if (typeof template !== 'string' || template === '') throw new TypeError('uriTemplate must be a non-empty string');
  const variables: string[] = [];
  let pattern = '^';
  let last = 0;
  for (const match of template.matchAll(EXPRESSION)) {
    pattern += escapeRegExp(template.slice(last, match.index));
    last = (match.index ?? 0) + match[0].length;
    let body = match[1] ?? '';
    const reserved = body.startsWith('+');
    if (reserved) body = body.slice(1);
    if (!VARNAME.test(body)) {
      throw new TypeError(`uriTemplate ${JSON.stringify(template)}: expression ${match[0]} is not supported (use {name} or {+name})`);
    }
    if (variables.includes(body)) throw new TypeError(`uriTemplate ${JSON.stringify(template)}: variable ${body} appears twice`);
    variables.push(body);
    pattern += reserved ? '(.+?)' : '([^/?#]+)';
  }
  const tail = template.slice(last);
  if (tail.includes('{') || tail.includes('}')) throw new TypeError(`uriTemplate ${JSON.stringify(template)} has an unbalanced brace`);
  pattern += `${escapeRegExp(tail)}$`;
  const regex = new RegExp(pattern);
  return {
    template,
    variables,
    match(uri) {
      const m = regex.exec(uri);
      if (m === null) return undefined;
      const values: Record<string, string> = {};
      for (let i = 0; i < variables.length; i++) {
        const raw = m[i + 1] ?? '';
        let value: string;
        try {
          value = decodeURIComponent(raw);
        } catch {
          return undefined;
        }
        values[variables[i] as string] = value;
      }
      return values;
    },
  };
}
