// The server side (server/, console/) reaches the arm only through ArmModel and ArmDriver: it never
// imports the simulator's facade, never advances a clock, and the package casts nothing through unknown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const PACKAGE_DIR = resolve(import.meta.dirname, '..', '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const SERVER_SIDE = [...tsFiles(join(PACKAGE_DIR, 'server')), ...tsFiles(join(PACKAGE_DIR, 'console'))];

describe('the driver boundary', () => {
  it('no server or console file imports sim/robot-simulation or the sim pacer', () => {
    assert.ok(SERVER_SIDE.length > 30, `found only ${SERVER_SIDE.length} files`);
    const offending = SERVER_SIDE.filter((file) => /from '[^']*(robot-simulation|sim-clock|motion-executor)\.js'/.test(readFileSync(file, 'utf8'))).map((f) => relative(PACKAGE_DIR, f));
    assert.deepEqual(offending, []);
  });

  it('no server or console file advances a clock (advance/step/runUntilSettled/next of a pacer)', () => {
    const offending = SERVER_SIDE.filter((file) => /\.(advance|step|runUntilSettled)\(|pacer\.next\(/.test(readFileSync(file, 'utf8'))).map((f) => relative(PACKAGE_DIR, f));
    assert.deepEqual(offending, []);
  });

  it('no file of the package (tests included) casts through unknown', () => {
    const offending = tsFiles(PACKAGE_DIR).filter((file) => readFileSync(file, 'utf8').includes('as unknown' + ' as')).map((f) => relative(PACKAGE_DIR, f));
    assert.deepEqual(offending, []);
  });
});
