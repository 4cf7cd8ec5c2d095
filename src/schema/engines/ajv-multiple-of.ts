import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
import { loadAjvCodegen } from '../lazy-deps.js';
import { isMultipleOf } from '../multiple-of.js';

/** Ajv's multipleOf divides floats (0.3 / 0.1 is not an integer there); ours is decimal-exact. */
export const multipleOfKeyword: CodeKeywordDefinition = {
  keyword: 'multipleOf',
  type: 'number',
  schemaType: 'number',
  error: { message: 'must be a multiple', params: ({ schemaCode }) => loadAjvCodegen()._`{multipleOf: ${schemaCode}}` },
  code(cxt: KeywordCxt) {
    const { _ } = loadAjvCodegen();
    const check = cxt.gen.scopeValue('func', { ref: isMultipleOf });
    cxt.fail(_`!${check}(${cxt.data}, ${cxt.schemaCode})`);
  },
};
