/**
 * The layering of `src/`, checked from the code: every relative import between top-level folders
 * must follow the dependency rules of docs/architecture.md ("Dependencies point downward only"),
 * no two top-level folders may import each other (directly or around a loop), and neither may two
 * folders of `src/server/`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../support/repo-paths.js';

const SRC = join(REPO_ROOT, 'src');

/** What each top-level folder may import (besides itself). Files directly in src/ are the entry points. */
const ALLOWED: Record<string, readonly string[]> = {
  json: [],
  text: [],
  errors: [],
  schema: ['json'],
  protocol: ['schema', 'json'],
  transport: ['protocol', 'schema'],
  host: ['protocol', 'schema'],
  client: ['transport', 'protocol', 'schema'],
  lint: ['host', 'protocol', 'schema'],
  diff: ['lint', 'host', 'protocol', 'schema'],
  eval: ['diff', 'lint', 'host', 'client', 'protocol', 'schema'],
  server: ['transport', 'protocol', 'schema'],
  console: ['server', 'transport', 'lint', 'host', 'protocol', 'schema'],
  compose: ['server', 'client', 'transport', 'lint', 'host', 'protocol', 'schema'],
  cli: ['compose', 'console', 'server', 'client', 'eval', 'diff', 'lint', 'host', 'transport', 'protocol', 'schema'],
};

/** Single-file exceptions, each explained in docs/architecture.md. */
const EXCEPTIONS: readonly string[] = [
  // The linter applies the very checks the server applies at registration.
  'lint/rules/spec/definition.ts -> server/tools/tool-definition-rules.ts',
  // A budget in tokens means the same in preview, lint and the server.
  'server/middleware/result-budget/index.ts -> host/token-estimate.ts',
  // search_tools' budget is counted by the same counter (docs/compose.md, "Large catalogs: search").
  'server/search/search-tools.ts -> host/token-estimate.ts',
];


interface Edge {
  readonly from: string;
  readonly to: string;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Every relative import of src/, as paths relative to src/ with .ts endings. */
function imports(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)) {
      const target = resolve(dirname(file), match[1] as string).replace(/\.js$/, '.ts');
      edges.push({ from: relative(SRC, file), to: relative(SRC, target) });
    }
  }
  return edges;
}

/** The folder of a path at `depth` below `base` ('' for a file directly in it). */
function folderOf(path: string, base: string): string | undefined {
  if (base !== '' && !path.startsWith(`${base}/`)) return undefined;
  const parts = path.slice(base === '' ? 0 : base.length + 1).split('/');
  return parts.length > 1 ? (parts[0] as string) : '';
}

/** Pairs of folders that reach each other (strongly connected), as `a <-> b` for every pair in a component. */
function cycles(edges: readonly Edge[], base: string): string[] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = folderOf(from, base);
    const b = folderOf(to, base);
    // Files directly in the base folder are its entry points and glue, not a layer.
    if (a === undefined || b === undefined || a === '' || b === '' || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)?.add(b);
  }
  const reaches = (a: string, b: string): boolean => {
    const seen = new Set<string>();
    const stack = [a];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      for (const c of graph.get(next) ?? []) {
        if (c === b) return true;
        if (!seen.has(c)) {
          seen.add(c);
          stack.push(c);
        }
      }
    }
    return false;
  };
  const found: string[] = [];
  const nodes = [...graph.keys()].sort();
  for (const [i, a] of nodes.entries()) for (const b of nodes.slice(i + 1)) if (reaches(a, b) && reaches(b, a)) found.push(`${a} <-> ${b}`);
  return found;
}

describe('import graph of src/', () => {
  const edges = imports();

  it('finds the imports it checks', () => {
    assert.ok(edges.length > 500, `only ${edges.length} imports found: the scanner is broken`);
  });

  it('every import between top-level folders points downward', () => {
    const wrong: string[] = [];
    for (const { from, to } of edges) {
      const a = folderOf(from, '');
      const b = folderOf(to, '');
      if (a === undefined || b === undefined || a === '' || a === b) continue;
      if (b === '') {
        wrong.push(`${from} -> ${to} (an entry point of src/ imported from inside)`);
        continue;
      }
      // json/, text/ and errors/ are the leaves every layer may use (canonical JSON, JSON text, isJsonObject; name similarity; the error base classes).
      if (b === 'json' || b === 'text' || b === 'errors' || (ALLOWED[a] ?? []).includes(b) || EXCEPTIONS.includes(`${from} -> ${to}`)) continue;
      wrong.push(`${from} -> ${to} (${a} may import ${(ALLOWED[a] ?? []).join(', ') || 'nothing'})`);
    }
    assert.deepEqual(wrong, []);
  });

  it('no two top-level folders import each other', () => {
    assert.deepEqual(cycles(edges, ''), []);
  });

  it('no two folders of src/server/ import each other', () => {
    assert.deepEqual(cycles(edges, 'server'), []);
  });

  it('the legacy wire is reached only through its index', () => {
    const inside = (path: string) => path.startsWith('server/legacy/');
    const wrong = edges.filter((e) => !inside(e.from) && inside(e.to) && e.to !== 'server/legacy/index.ts').map((e) => `${e.from} -> ${e.to}`);
    assert.deepEqual(wrong, []);
  });
});
