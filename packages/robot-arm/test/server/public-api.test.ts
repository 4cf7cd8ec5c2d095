// The robot arm is its own workspace package: it may use Toolwright only as any other consumer does,
// through the package name and its published entry points, never by reaching into ../../src. Its tests
// too: outside the package they may reach the repository's shared test code (test/, scripts/), never
// the toolkit's source or build.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const PACKAGE_DIR = resolve(import.meta.dirname, '..', '..');
const REPO_DIR = resolve(PACKAGE_DIR, '..', '..');
const ROOT_EXPORTS = Object.keys((JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
  .map((subpath) => (subpath === '.' ? 'toolwright' : `toolwright/${subpath.slice(2)}`));

/** Packages other than toolwright that the robot-arm package declares (e.g. ext-apps for its MCP App). */
const OWN_DEPENDENCIES = Object.keys((JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies).filter((name) => name !== 'toolwright');
/** Folders of the repository a test of the package may import from: the shared test code. */
const SHARED_TEST_CODE = ['test', 'scripts'];
const packageOf = (spec: string): string => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier of a file: static imports, re-exports and dynamic imports. */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:^|\s)(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/gm)].map((m) => m[1]!);
}

/**
 * The imports of `files` (path relative to the package, and source) that break the rule, as
 * `file: specifier (why)`: every import is node:, a published toolwright entry point, a declared
 * dependency or a file inside the package; a test file may also reach the repository's test code and
 * the test workspaces' packages (fast-check, the official SDKs: linked into test/node_modules).
 */
function offendingImports(files: readonly { readonly path: string; readonly source: string }[]): string[] {
  const offending: string[] = [];
  for (const { path, source } of files) {
    const isTest = path.split(sep)[0] === 'test';
    for (const spec of specifiers(source)) {
      if (spec.startsWith('node:')) continue;
      if (spec.startsWith('.')) {
        const target = resolve(PACKAGE_DIR, dirname(path), spec);
        if (!relative(PACKAGE_DIR, target).startsWith('..')) continue;
        const inRepo = relative(REPO_DIR, target).split(sep)[0]!;
        if (isTest && SHARED_TEST_CODE.includes(inRepo)) continue;
        offending.push(`${path}: ${spec} (${isTest ? `leaves the package for ${inRepo}/, not the repository's test code` : 'leaves the package'})`);
        continue;
      }
      if (packageOf(spec) === 'toolwright') {
        if (!ROOT_EXPORTS.includes(spec)) offending.push(`${path}: ${spec} (not a published toolwright entry point)`);
      } else if (!isTest && !OWN_DEPENDENCIES.includes(packageOf(spec))) {
        offending.push(`${path}: ${spec} (not a declared dependency)`);
      }
    }
  }
  return offending;
}

describe('the robot-arm package uses only Toolwright\'s public API', () => {
  it('its package.json depends on toolwright by name', () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
    assert.equal(pkg.name, '@toolwright/robot-arm');
    assert.ok('toolwright' in pkg.dependencies);
  });

  it('every import of the package, its tests included, is node:, a published entry point, a declared dependency, a file of the package, or (tests) the repository\'s test code', () => {
    const files = sourceFiles(PACKAGE_DIR).map((file) => ({ path: relative(PACKAGE_DIR, file), source: readFileSync(file, 'utf8') }));
    assert.ok(files.filter((f) => f.path.startsWith(`test${sep}`)).length > 60, 'the tests are scanned');
    assert.ok(files.length > 150, `found only ${files.length} source files`);
    assert.deepEqual(offendingImports(files), []);
  });

  it('the check refuses planted deep imports, in a source file and in a test', () => {
    // Built from parts, so that this file's own text holds no such import.
    const q = "'";
    const imports = (...specs: string[]): string => specs.map((spec) => `import * as m from ${q}${spec}${q};`).join('\n');
    const planted = [
      { path: join('server', 'planted.ts'), source: imports('../../../src/json/json-object.js', 'toolwright/dist/server/approvals.js', '../../../test/support/until.js', 'fast-check') },
      { path: join('test', 'server', 'planted.test.ts'), source: `${imports('../../../../src/server/approvals.js', '../../../../test/support/until.js', 'fast-check')}\nconst d = await import(${q}../../../../dist/index.js${q});` },
    ];
    assert.deepEqual(offendingImports(planted), [
      `${join('server', 'planted.ts')}: ../../../src/json/json-object.js (leaves the package)`,
      `${join('server', 'planted.ts')}: toolwright/dist/server/approvals.js (not a published toolwright entry point)`,
      `${join('server', 'planted.ts')}: ../../../test/support/until.js (leaves the package)`,
      `${join('server', 'planted.ts')}: fast-check (not a declared dependency)`,
      `${join('test', 'server', 'planted.test.ts')}: ../../../../src/server/approvals.js (leaves the package for src/, not the repository's test code)`,
      `${join('test', 'server', 'planted.test.ts')}: ../../../../dist/index.js (leaves the package for dist/, not the repository's test code)`,
    ]);
  });

  it('no file of the package keeps its own plain-object check: it uses the toolkit\'s isJsonObject', () => {
    const copy = /typeof (\w+) === 'object' && \1 !== null && !Array\.isArray\(\1\)/;
    const copies = sourceFiles(PACKAGE_DIR).filter((file) => copy.test(readFileSync(file, 'utf8'))).map((file) => relative(PACKAGE_DIR, file));
    assert.deepEqual(copies, []);
    // The copy the controller had, built from parts so that this file holds none.
    assert.ok(copy.test(['const isObject = (v: unknown) => typeof v', "=== 'object' && v !== null && !Array.isArray(v);"].join(' ')), 'the pattern finds a copy');
  });

  it('no file of the package builds an approval form or reads the elicitation capability itself: the server\'s approvalForm and canElicitForm do', () => {
    const own = /requestedSchema\s*[:=]|[cC]apabilities\??\.elicitation\b/;
    const files = sourceFiles(PACKAGE_DIR).filter((file) => !relative(PACKAGE_DIR, file).startsWith(`test${sep}`));
    assert.deepEqual(files.filter((file) => own.test(readFileSync(file, 'utf8'))).map((file) => relative(PACKAGE_DIR, file)), []);
    assert.ok(own.test('const elicitation = ctx.clientCapabilities.elicitation;') && own.test('requestedSchema: REQUESTED_SCHEMA'), 'the pattern finds the copies the gate had');
  });
});
