// Types of scripts/check-quiet-install.mjs (plain JavaScript, run by .ci/run right after npm ci).

/** The problems of one `npm ci` output (warning lines, a missing or too high package count), and the count it read. */
export function quietInstallProblems(output: string, maxPackages: number): { problems: string[]; added: number | undefined };
