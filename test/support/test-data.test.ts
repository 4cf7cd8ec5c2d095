// The external-data locator: the variable wins and must hold the data, the submodule is next,
// and a missing data set is reported by one exact line, once per process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSON_SCHEMA_TEST_SUITE, locate, locateJsonSchemaTestSuite, locateMcpSchema, MCP_SCHEMA, MCP_SCHEMA_REVISIONS, skipLine, type TestDataSet } from './test-data.js';
import { repoPath, TSX_LOADER } from './repo-paths.js';

/** Runs `body` with `name` set to `value` (or unset for undefined), restoring it afterwards. */
function withEnv<T>(name: string, value: string | undefined, body: () => T): T {
  const before = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return body();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

/** A temporary directory holding `files` (relative paths, created empty). */
function tempData(files: string[]): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-test-data-'));
  for (const file of files) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), '{}');
  }
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('the skip lines name the data set, the submodule command and the variable', () => {
  assert.equal(skipLine(JSON_SCHEMA_TEST_SUITE), 'skipped: JSON-Schema-Test-Suite not found; run "git submodule update --init" or set JSON_SCHEMA_TEST_SUITE');
  assert.equal(skipLine(MCP_SCHEMA), 'skipped: MCP schema.json not found; run "git submodule update --init" or set MCP_SCHEMA_ROOT');
});

test('a variable pointing at a copy is used, and each revision resolves to its schema.json', () => {
  const { dir, done } = tempData(MCP_SCHEMA_REVISIONS.map((revision) => `${revision}/schema.json`));
  try {
    withEnv('MCP_SCHEMA_ROOT', dir, () => {
      assert.equal(locate(MCP_SCHEMA), dir);
      for (const revision of MCP_SCHEMA_REVISIONS) assert.equal(locateMcpSchema(revision), join(dir, revision, 'schema.json'));
    });
  } finally {
    done();
  }
});

test('a variable that does not hold the data set fails loudly instead of skipping', () => {
  const { dir, done } = tempData(['tests/draft2020-12/type.json']);
  try {
    withEnv('JSON_SCHEMA_TEST_SUITE', dir, () => {
      assert.throws(() => locateJsonSchemaTestSuite(), { message: `JSON_SCHEMA_TEST_SUITE=${dir} is not the JSON-Schema-Test-Suite: it has no tests/draft7, remotes` });
    });
    withEnv('JSON_SCHEMA_TEST_SUITE', join(dir, 'absent'), () => {
      assert.throws(() => locateJsonSchemaTestSuite(), { message: `JSON_SCHEMA_TEST_SUITE=${join(dir, 'absent')}: no such directory (it should hold the JSON-Schema-Test-Suite)` });
    });
    withEnv('JSON_SCHEMA_TEST_SUITE', join(dir, 'tests/draft2020-12/type.json'), () => {
      assert.throws(() => locateJsonSchemaTestSuite(), /: no such directory \(it should hold the JSON-Schema-Test-Suite\)$/);
    });
  } finally {
    done();
  }
});

test('without the variable the submodule is used when it holds the data, else nothing is found', () => {
  // Stand-in data sets whose "submodule" is a folder of this repository, so the test does not depend on whether third_party/ is initialised.
  const present: TestDataSet = { name: 'lint fixtures', envVar: 'TOOLWRIGHT_TEST_DATA_UNSET', submodule: 'test', submoduleRoot: 'fixtures', markers: ['lint/seed-good.json'] };
  const absent: TestDataSet = { ...present, markers: ['lint/no-such-file.json'] };
  withEnv(present.envVar, undefined, () => {
    assert.equal(locate(present), repoPath('test', 'fixtures'));
    assert.equal(locate(absent), undefined);
  });
  withEnv(present.envVar, '', () => assert.equal(locate(absent), undefined, 'an empty variable counts as unset'));
  const { dir, done } = tempData(['lint/seed-good.json']);
  try {
    withEnv(present.envVar, dir, () => assert.equal(locate(present), dir, 'the variable wins over the submodule'));
  } finally {
    done();
  }
});

test('reportMissing prints each data set\'s line once per process, on stdout', () => {
  const script = `import { reportMissing, JSON_SCHEMA_TEST_SUITE, MCP_SCHEMA } from ${JSON.stringify(new URL('./test-data.ts', import.meta.url).href)};
reportMissing(MCP_SCHEMA); reportMissing(JSON_SCHEMA_TEST_SUITE); reportMissing(MCP_SCHEMA);`;
  const child = spawnSync(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', script], { cwd: '/', encoding: 'utf8', timeout: 60_000 });
  assert.equal(child.stderr, '');
  assert.equal(child.stdout, `${skipLine(MCP_SCHEMA)}\n${skipLine(JSON_SCHEMA_TEST_SUITE)}\n`);
  assert.equal(child.status, 0);
});
