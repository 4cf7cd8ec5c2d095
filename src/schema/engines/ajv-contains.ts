import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
import { loadAjvCodegen } from '../lazy-deps.js';

/**
 * `contains` for the fast engine. Ajv 8.20's own version leaves its result variable uninitialised
 * for an empty array in the common case (no minContains/maxContains); the generated `var` keeps
 * the previous iteration's value, so under `items`/`additionalProperties` an empty array after a
 * matching one was accepted (`{items: {contains: {type: "number"}}}` accepted `[[1], []]`). Here
 * the result always starts from a known value and matches are counted.
 */
export const containsKeyword: CodeKeywordDefinition = {
  keyword: 'contains',
  type: 'array',
  schemaType: ['object', 'boolean'],
  before: 'uniqueItems',
  trackErrors: true,
  error: {
    message: 'must contain the required number of matching items',
    params: ({ params }) => {
      const { _ } = loadAjvCodegen();
      return params.max === undefined ? _`{minContains: ${params.min}}` : _`{minContains: ${params.min}, maxContains: ${params.max}}`;
    },
  },
  code(cxt: KeywordCxt) {
    const { _, alwaysValidSchema, Type } = loadAjvCodegen();
    const { gen, schema, parentSchema, data, it } = cxt;
    // minContains/maxContains exist from 2019-09 on (Ajv's `next` option); draft-07 has neither.
    const min: number = it.opts.next && typeof parentSchema.minContains === 'number' ? parentSchema.minContains : 1;
    const max: number | undefined = it.opts.next && typeof parentSchema.maxContains === 'number' ? parentSchema.maxContains : undefined;
    cxt.setParams({ min, max });
    const length = gen.const('len', _`${data}.length`);
    if (max === undefined && min === 0) return;
    if (max !== undefined && min > max) { cxt.fail(); return; }
    if (alwaysValidSchema(it, schema)) {
      cxt.pass(max === undefined ? _`${length} >= ${min}` : _`${length} >= ${min} && ${length} <= ${max}`);
      return;
    }
    it.items = true;
    const valid = gen.let('valid', min === 0);
    const matched = gen.name('_valid');
    const count = gen.let('count', 0);
    gen.forRange('i', 0, length, (i) => {
      cxt.subschema({ keyword: 'contains', dataProp: i, dataPropType: Type.Num, compositeRule: true }, matched);
      gen.if(matched, () => {
        gen.code(_`${count}++`);
        if (max === undefined) {
          gen.if(_`${count} >= ${min}`, () => gen.assign(valid, true).break());
        } else {
          gen.if(_`${count} > ${max}`, () => gen.assign(valid, false).break());
          gen.if(_`${count} >= ${min}`, () => gen.assign(valid, true));
        }
      });
    });
    cxt.result(valid, () => cxt.reset());
  },
};
