/**
 * The one locator for external test data: the official JSON-Schema-Test-Suite and the official MCP
 * `schema.json` of each revision. Neither is copied into the repository; each is a git submodule
 * under third_party/ (pinned in .gitmodules), and CI, which cannot fetch submodules, points an
 * environment variable at its own copy.
 *
 * Order: the environment variable (it must then hold the data, or the run fails: a CI that asked
 * for the data must not silently skip it), then the submodule, else not found. A suite that needs
 * a data set that is not found prints one line (see `skipLine`) and registers no tests, so a fresh
 * clone's `npm test` passes and says plainly what it did not run.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoPath } from './repo-paths.js';

/** An external data set a test suite may need. */
export interface TestDataSet {
  /** What the data set is, as printed in the skip line. */
  readonly name: string;
  /** The environment variable that points at a copy of it. */
  readonly envVar: string;
  /** The git submodule (relative to the repository root) that holds it. */
  readonly submodule: string;
  /** The directory, relative to the submodule, that plays the role of the variable's directory. */
  readonly submoduleRoot: string;
  /** Paths (relative to the data set's directory) that must exist for a copy to count as present. */
  readonly markers: readonly string[];
}

/** The MCP revisions whose official schema.json the locator knows. */
export const MCP_SCHEMA_REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type McpSchemaRevision = (typeof MCP_SCHEMA_REVISIONS)[number];

/** json-schema-org/JSON-Schema-Test-Suite: `tests/<draft>/*.json` and `remotes/`. */
export const JSON_SCHEMA_TEST_SUITE: TestDataSet = {
  name: 'JSON-Schema-Test-Suite',
  envVar: 'JSON_SCHEMA_TEST_SUITE',
  submodule: 'third_party/json-schema-test-suite',
  submoduleRoot: '.',
  markers: ['tests/draft2020-12', 'tests/draft7', 'remotes'],
};

/**
 * modelcontextprotocol/modelcontextprotocol's `schema/<revision>/schema.json`. The variable names
 * the directory holding the `<revision>/` folders; in the submodule that is its `schema/` folder.
 */
export const MCP_SCHEMA: TestDataSet = {
  name: 'MCP schema.json',
  envVar: 'MCP_SCHEMA_ROOT',
  submodule: 'third_party/modelcontextprotocol',
  submoduleRoot: 'schema',
  markers: MCP_SCHEMA_REVISIONS.map((revision) => `${revision}/schema.json`),
};

function hasMarkers(dir: string, set: TestDataSet): boolean {
  return set.markers.every((marker) => existsSync(join(dir, marker)));
}

/**
 * The directory of `set`, or undefined when neither the variable nor the submodule provides it.
 * Throws when the variable is set but does not point at the data set.
 */
export function locate(set: TestDataSet): string | undefined {
  const fromEnv = process.env[set.envVar];
  if (fromEnv !== undefined && fromEnv !== '') {
    const dir = resolve(fromEnv);
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${set.envVar}=${fromEnv}: no such directory (it should hold the ${set.name})`);
    const missing = set.markers.filter((marker) => !existsSync(join(dir, marker)));
    if (missing.length > 0) throw new Error(`${set.envVar}=${fromEnv} is not the ${set.name}: it has no ${missing.join(', ')}`);
    return dir;
  }
  const dir = repoPath(set.submodule, set.submoduleRoot);
  return hasMarkers(dir, set) ? dir : undefined;
}

/** The JSON-Schema-Test-Suite directory (holding tests/ and remotes/), or undefined. */
export function locateJsonSchemaTestSuite(): string | undefined {
  return locate(JSON_SCHEMA_TEST_SUITE);
}

/** The official schema.json of `revision`, or undefined. */
export function locateMcpSchema(revision: McpSchemaRevision): string | undefined {
  const root = locate(MCP_SCHEMA);
  return root === undefined ? undefined : join(root, revision, 'schema.json');
}

/** The one line a suite prints when `set` is not found. */
export function skipLine(set: TestDataSet): string {
  return `skipped: ${set.name} not found; run "git submodule update --init" or set ${set.envVar}`;
}

const reported = new Set<TestDataSet>();

/** Prints `skipLine(set)` to stdout, once per process however many suites of the process need it. */
export function reportMissing(set: TestDataSet): void {
  if (reported.has(set)) return;
  reported.add(set);
  process.stdout.write(`${skipLine(set)}\n`);
}
