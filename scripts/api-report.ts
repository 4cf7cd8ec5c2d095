/**
 * `npm run api:report`: rewrites docs/api-report/<entry>.api.md, the public declarations of every
 * package entry point (scripts/api-report-lib.ts). `--check` writes nothing and exits 1 when a
 * report differs from the code, naming it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApiReports } from './api-report-lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'docs', 'api-report');
const reports = buildApiReports(root);
if (process.argv.includes('--check')) {
  const stale = [...reports].filter(([name, text]) => {
    try { return readFileSync(join(dir, name), 'utf8') !== text; } catch { return true; }
  }).map(([name]) => name);
  if (stale.length > 0) {
    process.stderr.write(`API report out of date: ${stale.join(', ')}; run npm run api:report and review the diff\n`);
    process.exit(1);
  }
  process.stdout.write(`API report: ${reports.size} entry points up to date\n`);
} else {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (name.endsWith('.api.md') && !reports.has(name)) rmSync(join(dir, name));
  for (const [name, text] of reports) writeFileSync(join(dir, name), text);
  process.stdout.write(`API report written: ${[...reports.keys()].map((name) => `docs/api-report/${name}`).join(', ')}\n`);
}
