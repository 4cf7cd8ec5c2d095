// The server side (server/, console/, and view/, which server/ builds the MCP App from) reaches the arm
// only through ArmModel (model/arm-model.ts) and ArmDriver (driver/arm-driver.ts): it imports nothing of sim/ (not even a constant or a type), no
// other driver or model file, never advances a clock, and the package casts nothing through unknown.
// The default driver, the in-process simulator, is wired outside: wiring/simulated-robot-server.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const PACKAGE_DIR = resolve(import.meta.dirname, '..', '..');
/** A package-shaped folder with planted violations: proves the check finds them. */
const PLANTED_DIR = resolve(import.meta.dirname, '..', 'fixtures', 'driver-boundary');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier of a file: static imports (type-only included), re-exports, side-effect and dynamic imports. */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:^|\s)(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/gm)].map((m) => m[1]!);
}

/** The folders of the server side. */
const SERVER_SIDE_FOLDERS = ['server', 'console', 'view'];

/** The files outside the server side that it may import. */
const ALLOWED = new Set([join('model', 'arm-model.ts'), join('driver', 'arm-driver.ts')]);

/** Each import of a server-side file under `packageDir` that crosses the boundary, as `file: specifier (why)`. */
function boundaryViolations(packageDir: string): { files: number; violations: string[] } {
  const files = SERVER_SIDE_FOLDERS.map((side) => join(packageDir, side)).filter((dir) => existsSync(dir)).flatMap((dir) => tsFiles(dir));
  const violations: string[] = [];
  for (const file of files) {
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(packageDir, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
      const top = target.split(sep)[0];
      if (top !== undefined && SERVER_SIDE_FOLDERS.includes(top)) continue;
      const why = top === 'sim' ? 'the simulator' : ALLOWED.has(target) ? undefined : 'past ArmModel and ArmDriver';
      if (why !== undefined) violations.push(`${relative(packageDir, file)}: ${spec} (${why})`);
    }
  }
  return { files: files.length, violations: violations.sort() };
}

describe('the driver boundary', () => {
  it('no server, console or view file imports sim/, or any model or driver file but arm-model.ts and arm-driver.ts', () => {
    const { files, violations } = boundaryViolations(PACKAGE_DIR);
    assert.ok(files > 30, `found only ${files} files`);
    assert.deepEqual(violations, []);
  });

  it('the check finds planted violations: a static import of sim/ in server/ and a dynamic one in console/', () => {
    assert.deepEqual(boundaryViolations(PLANTED_DIR), {
      files: 3,
      violations: [
        `${join('console', 'planted-dynamic.ts')}: ../sim/planted-sim.js (the simulator)`,
        `${join('server', 'planted-violation.ts')}: ../sim/planted-sim.js (the simulator)`,
      ],
    });
  });

  it('no server, console or view file advances a clock (advance/step/runUntilSettled/next of a pacer)', () => {
    const SERVER_SIDE = SERVER_SIDE_FOLDERS.flatMap((side) => tsFiles(join(PACKAGE_DIR, side)));
    const offending = SERVER_SIDE.filter((file) => /\.(advance|step|runUntilSettled)\(|pacer\.next\(/.test(readFileSync(file, 'utf8'))).map((f) => relative(PACKAGE_DIR, f));
    assert.deepEqual(offending, []);
  });

  it('no file of the package (tests included) casts through unknown', () => {
    const offending = tsFiles(PACKAGE_DIR).filter((file) => readFileSync(file, 'utf8').includes('as unknown' + ' as')).map((f) => relative(PACKAGE_DIR, f));
    assert.deepEqual(offending, []);
  });
});
