import { isJsonObject } from '../../../json/json-object.js';
import { countTextTokens } from '../../../host/token-estimate.js';
import { estimateToolTokens, surelyWithinTokens } from '../../token-estimator.js';

import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule } from '../../types.js';

/**
 * Text written mostly in CJK scripts is measured in characters, as the seed guide states its budgets
 * ("100到150个汉字"); other text in o200k_base tokens. Mostly = at least half of the letters and
 * ideographs (identifiers such as move_arm_to_pose inside Chinese prose do not tip it over).
 */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

function measure(text: string): { cjk: boolean; size: number } {
  if (!CJK.test(text)) return { cjk: false, size: -1 }; // one scan instead of two regex tests a character
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (CJK.test(ch)) cjk++;
    else if (/[\p{L}\p{N}]/u.test(ch)) other++;
  }
  if (cjk > 0 && cjk >= other) return { cjk: true, size: [...text.trim()].filter((ch) => !/\s/.test(ch)).length };
  return { cjk: false, size: -1 };
}

interface Budget { cjk: boolean; used: number; limit: number; unit: string }

function overBudget(text: string, maxTokens: number, maxCjkChars: number): Budget | undefined {
  const measured = measure(text);
  if (measured.cjk) return measured.size > maxCjkChars ? { cjk: true, used: measured.size, limit: maxCjkChars, unit: 'characters' } : undefined;
  if (surelyWithinTokens(text, maxTokens)) return undefined;
  const tokens = countTextTokens(text);
  return tokens > maxTokens ? { cjk: false, used: tokens, limit: maxTokens, unit: 'tokens' } : undefined;
}

const DESCRIPTION_BUDGET = { max: 114, maxCjkChars: 150 };

/**
 * The description alone: long descriptions crowd the context and bury the first sentence. Defaults
 * from the seed guide (§6.4): at most about 150 Chinese characters, or for other text the 114 o200k_base
 * tokens that 150 characters of the guide's own tool descriptions take (0.763 tokens per character,
 * measured in test/lint/budget-defaults.test.ts).
 */
export const descriptionTokens: LintRule<typeof DESCRIPTION_BUDGET> = {
  id: 'budget/description-tokens',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'A tool description stays within its budget (seed guide: 150 CJK characters; 114 o200k_base tokens for other text).',
  defaultOptions: DESCRIPTION_BUDGET,
  prepare: (options) => optionsOfDefaults(DESCRIPTION_BUDGET, options),
  checkTool(tool, ctx) {
    const over = overBudget(tool.description, ctx.prepared.max, ctx.prepared.maxCjkChars);
    if (over === undefined) return;
    ctx.report({
      pointer: '/description',
      message: `the description is about ${over.used} ${over.unit} (budget ${over.limit}${over.cjk ? ', the seed guide\'s 100-150 Chinese characters' : ', the o200k_base equivalent of the seed guide\'s 150 Chinese characters'})`,
      fix: 'keep what it does, when to use it (and when not); move details into parameter descriptions or documentation',
    });
  },
};

const PARAMETER_DESCRIPTION_BUDGET = { max: 31, maxCjkChars: 50 };

/**
 * Each parameter description: a short phrase with meaning, unit and range is what helps. Defaults
 * from the seed guide (§6.4): at most about 50 Chinese characters, or 31 o200k_base tokens for other
 * text (0.617 tokens per character on the guide's parameter descriptions).
 */
export const parameterDescriptionTokens: LintRule<typeof PARAMETER_DESCRIPTION_BUDGET> = {
  id: 'budget/parameter-description-tokens',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'Each parameter description stays within its budget (seed guide: 50 CJK characters; 31 o200k_base tokens for other text).',
  defaultOptions: PARAMETER_DESCRIPTION_BUDGET,
  prepare: (options) => optionsOfDefaults(PARAMETER_DESCRIPTION_BUDGET, options),
  checkTool(tool, ctx) {
    const { max, maxCjkChars: maxCjk } = ctx.prepared;
    for (const param of tool.params) {
      if (!isJsonObject(param.schema) || typeof param.schema.description !== 'string') continue;
      const over = overBudget(param.schema.description, max, maxCjk);
      if (over === undefined) continue;
      ctx.report({
        pointer: `${param.pointer}/description`,
        message: `the description of "${param.name}" is about ${over.used} ${over.unit} (budget ${over.limit})`,
        fix: 'say meaning, unit and range in one sentence',
      });
    }
  },
};

const TOOL_BUDGET = { max: 500 };

/** The whole tool as the model receives it (name, description, inputSchema). */
export const toolTokens: LintRule<typeof TOOL_BUDGET> = {
  id: 'budget/tool-tokens',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'A whole tool definition stays within its token budget (default 500).',
  defaultOptions: TOOL_BUDGET,
  prepare: (options) => optionsOfDefaults(TOOL_BUDGET, options),
  checkTool(tool, ctx) {
    const { max } = ctx.prepared;
    const tokens = estimateToolTokens(tool.descriptor);
    if (tokens <= max) return;
    ctx.report({
      pointer: '',
      message: `the tool definition is about ${tokens} tokens (budget ${max})`,
      fix: 'shorten descriptions, drop rarely used parameters, or split the tool',
    });
  },
};

const CATALOG_BUDGET = { max: 10000 };

/** All tools together: past about 10k tokens, selection accuracy drops and tool search pays off. */
export const catalogTokens: LintRule<typeof CATALOG_BUDGET> = {
  id: 'budget/catalog-tokens',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'All tool definitions together stay within the catalog token budget (default 10,000).',
  defaultOptions: CATALOG_BUDGET,
  prepare: (options) => optionsOfDefaults(CATALOG_BUDGET, options),
  checkCatalog(catalog, ctx) {
    const { max } = ctx.prepared;
    let total = 0;
    for (const tool of catalog.tools) total += estimateToolTokens(tool.descriptor);
    if (total <= max) return;
    ctx.report({
      pointer: '',
      message: `the ${catalog.tools.length} tool definitions total about ${total} tokens (budget ${max})`,
      fix: 'split the server by domain, trim descriptions, or have hosts load tools on demand (tool search)',
    });
  },
};

const TOOL_COUNT_LIMITS = { warnAbove: 20, strongWarnAbove: 40, errorAbove: 128 };

/**
 * Tool count: models choose worse among many tools. Warning above 20 (OpenAI, Gemini guidance),
 * a stronger warning above 40 (Google MCP Toolbox's upper limit), error above 128 (the OpenAI and
 * VS Code hard limit: the request is rejected).
 */
export const toolCount: LintRule<typeof TOOL_COUNT_LIMITS> = {
  id: 'budget/tool-count',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'Tool count: warning above 20, stronger warning above 40, error above 128.',
  defaultOptions: TOOL_COUNT_LIMITS,
  prepare: (options) => optionsOfDefaults(TOOL_COUNT_LIMITS, options),
  checkCatalog(catalog, ctx) {
    const count = catalog.tools.length;
    const { warnAbove: warn, strongWarnAbove: strong, errorAbove: error } = ctx.prepared;
    if (count <= warn) return;
    if (count > error) {
      ctx.report({
        pointer: '',
        severity: 'error',
        message: `${count} tools: more than ${error}, which OpenAI and VS Code reject outright`,
        fix: 'split the server by domain so that no host needs more than a few dozen tools at once',
      });
    } else if (count > strong) {
      ctx.report({
        pointer: '',
        message: `${count} tools: well above ${strong}, where tool choice is known to degrade badly`,
        fix: 'split the server by domain, or expose a smaller default toolset',
      });
    } else {
      ctx.report({
        pointer: '',
        message: `${count} tools: more than ${warn}; models choose less reliably among many tools`,
        fix: 'keep each toolset small (5-20 tools); split rarely used tools into another server',
      });
    }
  },
};
