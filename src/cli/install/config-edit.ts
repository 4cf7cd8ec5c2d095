/** What editing one host configuration gives: the new text, or why the file cannot be edited (nothing is written then). */

/** The outcome of an edit. `problem` completes a sentence that starts with the file's path. */
export type ConfigEdit =
  | { readonly ok: true; readonly text: string; readonly existing: boolean; readonly unchanged: boolean }
  | { readonly ok: false; readonly problem: string; readonly line?: number; readonly column?: number };

/** The 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}
