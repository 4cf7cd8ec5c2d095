/**
 * `JSON.stringify` for one string, cheaper for the usual short plain text (keys, tool names,
 * subjects, hashes): printable ASCII without `"` or `\` is its own JSON body, so the escaper is
 * skipped. Hot paths (canonical JSON, audit records) write their strings through it.
 * For example `jsonString('calculate_sum')` is `'"calculate_sum"'`.
 */
export function jsonString(text: string): string {
  return text.length <= 64 && PLAIN_TEXT.test(text) ? `"${text}"` : JSON.stringify(text);
}

const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
