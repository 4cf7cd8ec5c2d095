import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
import { loadAjvCodegen } from '../lazy-deps.js';
import { firstDuplicate } from '../unique-items.js';

/**
 * `uniqueItems` for the fast engine by hashing (see {@link firstDuplicate}): Ajv 8.20's own
 * compares items pairwise (O(n²): 8 s for 100,000 arrays) and keys scalars in a plain object,
 * so `["__proto__", "__proto__"]` passed.
 */
export const uniqueItemsKeyword: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  error: {
    message: 'must NOT have duplicate items',
    params: ({ params }) => loadAjvCodegen()._`{i: ${params.i}, j: ${params.j}}`,
  },
  code(cxt: KeywordCxt) {
    if (cxt.schema !== true) return;
    const { _ } = loadAjvCodegen();
    const find = cxt.gen.scopeValue('func', { ref: firstDuplicate });
    const pair = cxt.gen.const('duplicate', _`${find}(${cxt.data})`);
    cxt.setParams({ i: _`${pair}[1]`, j: _`${pair}[0]` });
    cxt.fail(_`${pair} !== undefined`);
  },
};
