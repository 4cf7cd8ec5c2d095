// The robot arm is its own workspace package: it may use Toolwright only as any other consumer does,
// through the package name and its published entry points, never by reaching into ../../src.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const PACKAGE_DIR = resolve(import.meta.dirname, '..', '..');
const ROOT_EXPORTS = Object.keys((JSON.parse(readFileSync(join(PACKAGE_DIR, '..', '..', 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
  .map((subpath) => (subpath === '.' ? 'toolwright' : `toolwright/${subpath.slice(2)}`));

/** Packages other than toolwright that the robot-arm package declares (e.g. ext-apps for its MCP App). */
const OWN_DEPENDENCIES = Object.keys((JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies).filter((name) => name !== 'toolwright');
const packageOf = (spec: string): string => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier of a file: static imports, re-exports and dynamic imports. */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:^|\s)(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/gm)].map((m) => m[1]!);
}

describe('the robot-arm package uses only Toolwright\'s public API', () => {
  it('its package.json depends on toolwright by name', () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
    assert.equal(pkg.name, '@toolwright/robot-arm');
    assert.ok('toolwright' in pkg.dependencies);
  });

  it('every import is node:, a published toolwright entry point, a declared dependency, or a file inside the package', () => {
    const offending: string[] = [];
    const files = sourceFiles(PACKAGE_DIR);
    assert.ok(files.length > 40, `found only ${files.length} source files`);
    for (const file of files) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('node:')) continue;
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          if (relative(PACKAGE_DIR, target).startsWith('..')) offending.push(`${relative(PACKAGE_DIR, file)}: ${spec} leaves the package`);
          continue;
        }
        if (OWN_DEPENDENCIES.includes(packageOf(spec))) continue;
        if (!ROOT_EXPORTS.includes(spec)) offending.push(`${relative(PACKAGE_DIR, file)}: ${spec} is not a published toolwright entry point`);
      }
    }
    assert.deepEqual(offending, []);
  });
});
