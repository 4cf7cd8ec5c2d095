/**
 * Reading the official JSON-Schema-Test-Suite (found by test-data.ts), for the suite runner
 * (scripts/schema-suite.ts) and the engine differential test: its `remotes/` as the registry a
 * `$ref` may name, and the test groups of one suite file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One test group of a suite file: a schema and instances with their expected validity. */
export interface SuiteGroup {
  description: string;
  schema: object | boolean;
  tests: Array<{ description: string; data: unknown; valid: boolean }>;
}

/** Every document under `remotes/`, by the `http://localhost:1234/...` URI the suite's schemas use for it. */
export function loadSuiteRemotes(suiteRoot: string): Record<string, object | boolean> {
  const root = join(suiteRoot, 'remotes');
  const remotes: Record<string, object | boolean> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) remotes[`http://localhost:1234/${relative(root, path).split('\\').join('/')}`] = JSON.parse(readFileSync(path, 'utf8')) as object | boolean;
    }
  };
  walk(root);
  return remotes;
}

/** The suite files of `tests/<dir>` (for example `draft7`), by name, sorted. */
export function suiteFileNames(suiteRoot: string, dir: string): string[] {
  return readdirSync(join(suiteRoot, 'tests', dir)).filter((n) => n.endsWith('.json')).sort();
}

/**
 * The groups of one suite file. With `dialectUri`, a schema object without `$schema` gets it: the
 * draft7 suite's schemas are draft-07 schemas that do not say so, as a real draft-07 document would.
 */
export function readSuiteGroups(path: string, dialectUri: string | undefined): SuiteGroup[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as SuiteGroup[]).map((group) =>
    dialectUri !== undefined && typeof group.schema === 'object' && !('$schema' in group.schema) ? { ...group, schema: { $schema: dialectUri, ...group.schema } } : group,
  );
}
