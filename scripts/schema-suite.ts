// Runs the official JSON-Schema-Test-Suite through toolwright/schema's compileSchema and prints,
// per suite file, "N passed, M failed". Exits non-zero when a required target is missed:
// every test of tests/draft2020-12/*.json and tests/draft7/*.json, and no wrongly accepted instance
// in draft2020-12/optional (non-format). Also runs the differential check: for every schema the fast
// engine takes, the compliant engine must give the same validity on every instance.
// Where the suite is comes from test/support/test-data.ts: $JSON_SCHEMA_TEST_SUITE (which must then
// hold it), else the third_party submodule; without either this prints the one skip line and exits 0.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compileSchema, SchemaCompileError } from '../src/schema/index.js';
import { compileBothEngines } from '../src/schema/differential.js';
import { JSON_SCHEMA_TEST_SUITE, locateJsonSchemaTestSuite, reportMissing } from '../test/support/test-data.js';
import { loadSuiteRemotes, readSuiteGroups, suiteFileNames } from '../test/support/json-schema-test-suite.js';

let suiteRoot: string | undefined;
try {
  suiteRoot = locateJsonSchemaTestSuite();
} catch (error) {
  console.error(`schema-suite: ${(error as Error).message}`);
  process.exit(2);
}
if (suiteRoot === undefined) {
  reportMissing(JSON_SCHEMA_TEST_SUITE);
  process.exit(0);
}

const remotes = loadSuiteRemotes(suiteRoot);

interface Tally { passed: number; failed: number; wronglyAccepted: number; wronglyRejected: number; compileErrors: number; fast: number; compared: number; disagreements: number; failures: string[] }

function runFile(path: string, dialectUri: string | undefined, formatAssertion: boolean): Tally {
  const tally: Tally = { passed: 0, failed: 0, wronglyAccepted: 0, wronglyRejected: 0, compileErrors: 0, fast: 0, compared: 0, disagreements: 0, failures: [] };
  for (const group of readSuiteGroups(path, dialectUri)) {
    const { schema } = group;
    let validate: ((x: unknown) => boolean) | undefined;
    let other: ((x: unknown) => boolean) | undefined;
    try {
      const compiled = compileSchema(schema, { remotes, formatAssertion });
      validate = (x) => compiled.validate(x).valid;
      if (compiled.engine === 'fast') {
        tally.fast++;
        const both = compileBothEngines(schema, { remotes, formatAssertion });
        other = (x) => both.compliant(x).length === 0;
      }
    } catch (error) {
      tally.compileErrors++;
      const why = error instanceof SchemaCompileError ? error.message : `unexpected ${String(error)}`;
      for (const test of group.tests) {
        tally.failed++;
        tally.wronglyRejected++;
        tally.failures.push(`${group.description} / ${test.description}: compile error: ${why}`);
      }
      continue;
    }
    for (const test of group.tests) {
      let got: boolean;
      try { got = validate(test.data); } catch (error) { got = !test.valid; tally.failures.push(`${group.description} / ${test.description}: threw ${String(error)}`); }
      if (other) tally.compared++;
      if (other && other(test.data) !== got) {
        tally.disagreements++;
        tally.failures.push(`${group.description} / ${test.description}: engines disagree (fast=${got})`);
      }
      if (got === test.valid) { tally.passed++; continue; }
      tally.failed++;
      if (got) tally.wronglyAccepted++; else tally.wronglyRejected++;
      tally.failures.push(`${group.description} / ${test.description}: expected ${test.valid ? 'valid' : 'invalid'}`);
    }
  }
  return tally;
}

function sum(list: Tally[]): Tally {
  return list.reduce((a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, wronglyAccepted: a.wronglyAccepted + b.wronglyAccepted, wronglyRejected: a.wronglyRejected + b.wronglyRejected, compileErrors: a.compileErrors + b.compileErrors, fast: a.fast + b.fast, compared: a.compared + b.compared, disagreements: a.disagreements + b.disagreements, failures: [] }),
    { passed: 0, failed: 0, wronglyAccepted: 0, wronglyRejected: 0, compileErrors: 0, fast: 0, compared: 0, disagreements: 0, failures: [] });
}

const verbose = process.argv.includes('--verbose');
function runDir(label: string, dir: string, dialectUri: string | undefined, formatAssertion: boolean): Tally {
  const full = join(suiteRoot!, 'tests', dir);
  if (!existsSync(full)) { console.log(`\n${label}: (missing ${full})`); return sum([]); }
  console.log(`\n== ${label} (${dir}${formatAssertion ? ', formatAssertion: true' : ''})`);
  const results: Tally[] = [];
  for (const name of suiteFileNames(suiteRoot!, dir)) {
    const t = runFile(join(full, name), dialectUri, formatAssertion);
    results.push(t);
    const extra = [t.wronglyAccepted ? `${t.wronglyAccepted} wrongly accepted` : '', t.disagreements ? `${t.disagreements} engine disagreements` : ''].filter(Boolean).join(', ');
    console.log(`  ${name.padEnd(34)} ${t.passed} passed, ${t.failed} failed${extra ? ` (${extra})` : ''}  [fast path: ${t.fast} groups]`);
    if (verbose || t.disagreements > 0) for (const f of t.failures) console.log(`      - ${f}`);
  }
  const total = sum(results);
  console.log(`  TOTAL ${label}: ${total.passed} passed, ${total.failed} failed, ${total.wronglyAccepted} wrongly accepted, ${total.disagreements} engine disagreements, ${total.fast} groups on fast path`);
  return total;
}

const d2020 = runDir('draft2020-12 required', 'draft2020-12', undefined, false);
const d7 = runDir('draft7 required', 'draft7', 'http://json-schema.org/draft-07/schema#', false);
const opt = runDir('draft2020-12 optional (non-format)', 'draft2020-12/optional', undefined, false);
const fmt = runDir('draft2020-12 optional/format', 'draft2020-12/optional/format', undefined, true);
const d7opt = runDir('draft7 optional (informational)', 'draft7/optional', 'http://json-schema.org/draft-07/schema#', false);

const fmtRate = fmt.passed / Math.max(1, fmt.passed + fmt.failed);
console.log('\n== Summary');
console.log(`draft2020-12: ${d2020.passed}/${d2020.passed + d2020.failed}`);
console.log(`draft7:       ${d7.passed}/${d7.passed + d7.failed}`);
console.log(`optional (non-format): ${opt.passed}/${opt.passed + opt.failed}, wrongly accepted ${opt.wronglyAccepted}`);
console.log(`optional/format (assertion on): ${fmt.passed}/${fmt.passed + fmt.failed} (${(fmtRate * 100).toFixed(1)}%)`);
console.log(`draft7 optional (informational): ${d7opt.passed}/${d7opt.passed + d7opt.failed}`);
const all = [d2020, d7, opt, fmt, d7opt];
const disagreements = all.reduce((n, t) => n + t.disagreements, 0);
console.log(`differential: ${all.reduce((n, t) => n + t.fast, 0)} groups on the fast path, ${all.reduce((n, t) => n + t.compared, 0)} instances run on both engines, ${disagreements} disagreements`);

const problems: string[] = [];
if (d2020.failed > 0) problems.push(`draft2020-12 has ${d2020.failed} failures`);
if (d7.failed > 0) problems.push(`draft7 has ${d7.failed} failures`);
if (opt.wronglyAccepted > 0) problems.push(`optional has ${opt.wronglyAccepted} wrongly accepted`);
if (disagreements > 0) problems.push(`${disagreements} fast/compliant disagreements`);
if (problems.length > 0) { console.error(`\nschema-suite: FAILED: ${problems.join('; ')}`); process.exit(1); }
console.log('\nschema-suite: all required targets met');
