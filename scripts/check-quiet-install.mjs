#!/usr/bin/env node
// Judges the output of the root `npm ci` (issue 33 item 3; .ci/run section 2a): no `npm warn` line and
// at most --max-packages packages added, the figures the README's Quick start states. Plain
// JavaScript: it runs right after the install, in the clone CI made.
//
//   node scripts/check-quiet-install.mjs <npm ci output file> --max-packages <n>
//
// Exit 0 with one summary line; exit 1 naming each problem (the warning lines as npm wrote them).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** The problems of one `npm ci` output: warning lines, a missing or too high package count. */
export function quietInstallProblems(output, maxPackages) {
  const problems = [];
  const warnings = output.split('\n').filter((line) => /^npm warn/i.test(line));
  if (warnings.length > 0) problems.push(`npm ci printed ${warnings.length} warning line(s); the README promises none:\n${warnings.map((line) => `  ${line}`).join('\n')}`);
  const added = [...output.matchAll(/\badded (\d+) packages?\b/g)].at(-1)?.[1];
  if (added === undefined) problems.push('npm ci did not say how many packages it added ("added N packages")');
  else if (Number(added) > maxPackages) problems.push(`npm ci added ${added} packages, more than ${maxPackages}: is a test-only package in the root install? (docs/architecture.md, "Test-only packages")`);
  return { problems, added: added === undefined ? undefined : Number(added) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { 'max-packages': { type: 'string' } } });
  const max = Number(values['max-packages']);
  if (positionals.length !== 1 || !Number.isInteger(max) || max < 1) {
    process.stderr.write('usage: node scripts/check-quiet-install.mjs <npm ci output file> --max-packages <n>\n');
    process.exit(2);
  }
  const { problems, added } = quietInstallProblems(readFileSync(positionals[0], 'utf8'), max);
  if (problems.length > 0) {
    for (const problem of problems) process.stderr.write(`check-quiet-install: ${problem}\n`);
    process.exit(1);
  }
  process.stdout.write(`npm ci: ${added} packages (at most ${max}), no warning lines\n`);
}
