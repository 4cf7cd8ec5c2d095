import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
import { loadAjvCodegen } from '../lazy-deps.js';
import { patternCheck } from '../pattern-check.js';

/**
 * `pattern` for the fast engine: the linear-time matcher, and not run at all on a string that
 * already breaks the same schema's `maxLength` (that error is reported anyway, and a megabyte
 * string is not worth matching to say so twice).
 */
export const patternKeyword: CodeKeywordDefinition = {
  keyword: 'pattern',
  type: 'string',
  schemaType: 'string',
  error: {
    message: 'must match pattern',
    params: ({ schemaCode }) => loadAjvCodegen()._`{pattern: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const { _ } = loadAjvCodegen();
    const maxLength = (cxt.parentSchema as { maxLength?: unknown }).maxLength;
    const check = cxt.gen.scopeValue('func', { ref: patternCheck(cxt.schema as string, typeof maxLength === 'number' ? maxLength : undefined) });
    cxt.fail(_`!${check}(${cxt.data})`);
  },
};
