/**
 * docs/console.md documents every console API route the code mounts: each `{ method, path }` route
 * in src/console/ and the robot console appears as `METHOD /console<path>` in the HTTP API section.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { repoPath } from '../support/repo-paths.js';

const SOURCES = [
  ...readdirSync(repoPath('src/console')).filter((f) => f.endsWith('.ts')).map((f) => repoPath('src/console', f)),
  repoPath('packages/robot-arm/console/arm-console.ts'),
];

test('docs/console.md names every console API route with its method', () => {
  const docs = readFileSync(repoPath('docs/console.md'), 'utf8');
  const api = docs.slice(docs.indexOf('## HTTP API'), docs.indexOf('\n## ', docs.indexOf('## HTTP API') + 1));
  assert.ok(api.length > 100, 'docs/console.md has an "## HTTP API" section');
  const routes: string[] = [];
  for (const file of SOURCES) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\{ method: '(GET|POST)', path: '(\/api\/[a-z/-]+)'/g)) routes.push(`${match[1]} /console${match[2]}`);
  }
  assert.ok(routes.length >= 9, `found only ${routes.join(', ')}`);
  const missing = routes.filter((route) => !api.includes(`\`${route}`));
  assert.deepEqual(missing, [], 'routes missing from docs/console.md');
});
