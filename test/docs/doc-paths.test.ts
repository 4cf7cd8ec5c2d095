/**
 * Every path the docs cite exists (issue 33 item 9): the READMEs, docs/*.md and the robot package's
 * pages name source files, tests and scripts; a moved or renamed file must take its mentions along.
 * A path is a backticked token or a Markdown link target that starts with one of the repository's
 * folders (`src/`, `test/`, `docs/`, `packages/`, ...; or one of src/ or the robot package, `server/`, `sim/`, ...) and
 * names a file (an extension) or a folder (a trailing slash): `server/discover` is a method, not a path.
 * It is found from the repository root, the page's folder, `src/`, or the robot package.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT } from '../support/repo-paths.js';

const FOLDERS = ['src', 'test', 'examples', 'packages', 'docs', 'bench', 'scripts', 'third_party', 'test-deps', '.ci', 'sim', 'server', 'driver', 'controller', 'console', 'model'];
const CITED = new RegExp(String.raw`^(?:\.{1,2}/)*(?:${FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/(?:[\w.-]+/)*(?:[\w-]+(?:\.[\w-]+)*\.[a-z]{1,5})?$`);
const BASES = ['', 'src', join('packages', 'robot-arm')];

/** Markdown pages of the project: the root README, docs/, and every README and page under examples/, packages/ and bench/. */
function pages(): string[] {
  const found = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  for (const dir of ['docs', 'examples', 'packages', 'bench']) walk(dir);
  return found.filter((page) => !page.startsWith(join('bench', 'results')));
}

/** The paths a page cites, without line anchors (`file.ts:12`, `#section`) and trailing punctuation. */
function citedPaths(text: string): string[] {
  const paths: string[] = [];
  for (const match of text.matchAll(/`([^`\s]+)`|\]\(([^)\s]+)\)/g)) {
    const token = match[1] ?? match[2] ?? '';
    if (/[<>*{}$]|\.\.\./.test(token)) continue;
    const raw = token.replace(/[#:].*$/, '').replace(/[.,;]+$/, '');
    if (raw === '' || !CITED.test(raw)) continue;
    // A hidden folder other than .ci (packages/robot-arm/.data/) is written at run time and ignored by git: a fresh clone has none.
    if (raw.split('/').some((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..' && segment !== '.ci')) continue;
    paths.push(raw);
  }
  return paths;
}

it('every path cited by a Markdown page exists', () => {
  const missing: string[] = [];
  let checked = 0;
  for (const page of pages()) {
    const text = readFileSync(join(REPO_ROOT, page), 'utf8');
    for (const path of citedPaths(text)) {
      checked++;
      const bases = [join(REPO_ROOT, dirname(page)), ...BASES.map((base) => join(REPO_ROOT, base))];
      if (!bases.some((base) => existsSync(join(base, path)))) missing.push(`${page}: ${path}`);
    }
  }
  assert.ok(checked > 200, `only ${checked} paths found: the scan itself is broken`);
  assert.deepEqual(missing, []);
});

it('the scan recognises a cited path and ignores placeholders and URLs', () => {
  assert.deepEqual(citedPaths('see `src/server/outcomes.ts:42`, [doc](docs/server.md#x), `test/<name>.test.ts`, `https://x/y`, `src/a/...`, `server/discover`, `src/json/`'), ['src/server/outcomes.ts', 'docs/server.md', 'src/json/']);
  assert.equal(relative(REPO_ROOT, join(REPO_ROOT, 'README.md')), 'README.md');
});

/**
 * Paths of the robot package's own test folders (`test/driver/...`, `test/controller/...`: folders the
 * repository root does not have) written on a page outside the package, anywhere in its text (code
 * blocks included, which the scan above does not read): they pass the scan above only because it
 * also looks inside the package, yet a reader at the root finds nothing there.
 */
function robotOnlyTestPaths(page: string, text: string): string[] {
  if (page.startsWith(join('packages', 'robot-arm'))) return [];
  const found: string[] = [];
  for (const match of text.matchAll(/(?<![\w/.-])test\/([\w-]+)\/[\w./-]*\w\.[a-z]{1,5}/g)) {
    const folder = join('test', match[1]!);
    if (!existsSync(join(REPO_ROOT, folder)) && existsSync(join(REPO_ROOT, 'packages', 'robot-arm', folder))) found.push(`${page}: ${match[0]}`);
  }
  return found;
}

it('a page outside the robot package names its test files from the repository root', () => {
  assert.deepEqual(robotOnlyTestPaths('docs/x.md', 'see test/driver/a.ts and packages/robot-arm/test/driver/b.ts, test/server/c.test.ts'), ['docs/x.md: test/driver/a.ts']);
  const stale = pages().flatMap((page) => robotOnlyTestPaths(page, readFileSync(join(REPO_ROOT, page), 'utf8')));
  assert.deepEqual(stale, []);
});
