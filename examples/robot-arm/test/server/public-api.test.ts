import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const EXAMPLE = resolve(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the robot-arm example uses only Toolwright\'s public API', () => {
  it('every import from src/ goes through src/index.ts', () => {
    const deep: string[] = [];
    for (const file of sourceFiles(EXAMPLE)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/from '((?:\.\.\/)+src\/[^']+)'/g)) {
        if (!match[1]!.endsWith('/src/index.js')) deep.push(`${relative(EXAMPLE, file)}: ${match[1]}`);
      }
    }
    assert.deepEqual(deep, []);
  });
});
