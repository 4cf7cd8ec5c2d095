import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { containsKeyword } from './ajv-contains.js';
import { multipleOfKeyword } from './ajv-multiple-of.js';
import { patternKeyword } from './ajv-pattern.js';
import { uniqueItemsKeyword } from './ajv-unique-items.js';
import { loadAjv, loadAjvFormats } from '../lazy-deps.js';
import { SchemaCompileError } from '../compile-error.js';
import { compilePattern } from '../safe-regex.js';
import type { FastPathPlan } from '../route.js';
import type { Dialect } from '../types.js';

type AjvInstance = InstanceType<typeof Ajv2020> | InstanceType<typeof Ajv2019> | InstanceType<typeof Ajv>;

const safeRegExp: NonNullable<NonNullable<Options['code']>['regExp']> = Object.assign((pattern: string) => compilePattern(pattern), { code: 'toolwrightSafePattern' });

let serial = 0;
const instances = new Map<string, AjvInstance>();

/**
 * One Ajv per dialect and format mode. Meta-schema checks and `$ref` resolution are ours (done
 * before this point), so Ajv runs with validateSchema off and no meta-schemas: that keeps the
 * first compile cheap. ownProperties (only for schemas naming an Object.prototype property, see
 * planFastPath): inherited names like "constructor" must not satisfy `required`. strict off:
 * spec-valid schemas (`if` without `then`, ...) must compile.
 */
function ajvFor(dialect: Dialect, formatAssertion: boolean, ownProperties: boolean): AjvInstance {
  const key = `${dialect}|${formatAssertion}|${ownProperties}`;
  let ajv = instances.get(key);
  if (!ajv) {
    const options: Options = {
      strict: false, allErrors: true, ownProperties, verbose: true, validateSchema: false, meta: false,
      addUsedSchema: false, validateFormats: formatAssertion, code: { regExp: safeRegExp }, inlineRefs: true,
    };
    const classes = loadAjv();
    ajv = dialect === '2020-12' ? new classes.Ajv2020(options) : dialect === '2019-09' ? new classes.Ajv2019(options) : new classes.Ajv(options);
    // Ajv2019/2020 force evaluated-property tracking on for unevaluated*; those schemas never come
    // here, and the tracking code has a bug (anyOf + always-valid patternProperties + nested anyOf
    // throws "Cannot set properties of undefined" under allErrors), so it is switched off.
    (ajv.opts as { unevaluated?: boolean }).unevaluated = false;
    ajv.removeKeyword('multipleOf');
    ajv.addKeyword(multipleOfKeyword);
    ajv.removeKeyword('contains');
    ajv.addKeyword(containsKeyword);
    ajv.removeKeyword('uniqueItems');
    ajv.addKeyword(uniqueItemsKeyword);
    ajv.removeKeyword('pattern');
    ajv.addKeyword(patternKeyword);
    if (formatAssertion) (loadAjvFormats() as (ajv: AjvInstance) => void)(ajv);
    instances.set(key, ajv);
  }
  return ajv;
}

/**
 * Validation by Ajv's generated code: returns undefined when valid, else Ajv's raw errors (turned
 * into SchemaErrors only when someone reads them, see {@link normaliseFastErrors}).
 */
export type FastValidator = (instance: unknown) => readonly ErrorObject[] | undefined;

let prepared = false;

/**
 * Loads Ajv and warms its code generator, once per process. V8 compiles Ajv's own functions
 * lazily, so the first schema a process generates code for costs ~15-25 ms more than the next;
 * generating code for one small schema of the usual tool shape here puts that one-off cost with
 * the library load instead of on whichever tool happens to be first. Called before the first code
 * generation; a server reaches it in the background after its first answer, never at import.
 */
export function prepareFastEngine(): void {
  if (prepared) return;
  prepared = true;
  const validate = ajvFor('2020-12', false, false).compile({
    type: 'object',
    properties: {
      position: { type: 'object', properties: { x: { type: 'number', minimum: -1, maximum: 1 } }, required: ['x'], additionalProperties: false },
      mode: { type: 'string', enum: ['a', 'b'] }, count: { type: 'integer', exclusiveMinimum: 0 },
      tags: { type: 'array', items: { type: 'string', maxLength: 8 }, maxItems: 4 }, on: { type: 'boolean' },
    },
    required: ['position'],
    additionalProperties: false,
  });
  validate({ position: { x: 0 }, mode: 'a', count: 1, tags: ['t'], on: true });
  validate({ position: { x: 'no' }, extra: 1 });
}

/**
 * Compile on the fast engine. Only call for schemas planFastPath accepted.
 *
 * Ajv's code generation is deferred to the validator's first call (at most once; a refusal is
 * remembered and thrown again, as a SchemaCompileError, on every call): every definition check ran
 * before this point, so creating a server needs neither Ajv loaded nor code generated, and a
 * server warms its validators in the background after it starts answering. compileSchema turns a
 * throw here into an invalid result, so a schema Ajv refuses fails closed with the reason.
 */
export function compileFast(schema: object | boolean, dialect: Dialect, formatAssertion: boolean, plan: FastPathPlan): FastValidator {
  let validate: ValidateFunction | undefined;
  let refusal: SchemaCompileError | undefined;
  const build = (): ValidateFunction => {
    if (refusal) throw refusal;
    prepareFastEngine();
    try {
      // A private base URI lets "#" (root) references resolve without registering the schema anywhere.
      const rooted = typeof schema === 'boolean' || !plan.refsRoot ? schema : { ...schema, $id: `urn:toolwright:fast:${++serial}` };
      return (validate = ajvFor(dialect, formatAssertion, plan.ownProperties).compile(rooted as object));
    } catch (error) {
      throw (refusal = new SchemaCompileError('', `fast engine refused the schema: ${(error as Error).message}`));
    }
  };
  return (instance: unknown) => {
    const run = validate ?? build();
    return run(instance) ? undefined : run.errors!;
  };
}
