// Runs every *.test.ts under test/ and examples/ with node's own test runner (TypeScript via tsx).
// Node 20's --test does not expand globs, so the file list is gathered here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['test', 'examples', 'bench/test'];
const files = [];
function collect(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return;
  if (info.isFile()) { if (path.endsWith('.test.ts')) files.push(path); return; }
  for (const name of readdirSync(path).sort()) {
    if (name === 'node_modules') continue;
    collect(join(path, name));
  }
}
for (const root of roots) collect(root);
if (files.length === 0) { console.error('run-tests: no test files found under', roots.join(', ')); process.exit(1); }
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-timeout=120000', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
