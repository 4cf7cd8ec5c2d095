/** A positive integer command-line option of a bench script (`--rounds 7`), or `fallback` when absent. */
export function intOption(name: string, fallback: number, argv: readonly string[] = process.argv): number {
  const at = argv.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} needs a positive integer, got ${argv[at + 1]}`);
  return value;
}
