import { estimateTokens, estimateToolTokens, surelyWithinTokens } from '../../token-estimator.js';
import { isObject } from '../../tool-view.js';
import type { LintRule } from '../../types.js';

/** The description alone: long descriptions crowd the context and bury the first sentence. */
export const descriptionTokens: LintRule = {
  id: 'budget/description-tokens',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'A tool description stays within its token budget (default 300, o200k_base).',
  defaultOptions: { max: 300 },
  checkTool(tool, ctx) {
    const max = Number(ctx.options.max);
    if (surelyWithinTokens(tool.description, max)) return;
    const tokens = estimateTokens(tool.description);
    if (tokens <= max) return;
    ctx.report({
      pointer: '/description',
      message: `the description is about ${tokens} tokens (budget ${max})`,
      fix: 'keep the purpose and when-to-use; move details into parameter descriptions or documentation',
    });
  },
};

/** Each parameter description: a short phrase with meaning, unit and range is what helps. */
export const parameterDescriptionTokens: LintRule = {
  id: 'budget/parameter-description-tokens',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'Each parameter description stays within its token budget (default 100).',
  defaultOptions: { max: 100 },
  checkTool(tool, ctx) {
    const max = Number(ctx.options.max);
    for (const param of tool.params) {
      if (!isObject(param.schema) || typeof param.schema.description !== 'string' || surelyWithinTokens(param.schema.description, max)) continue;
      const tokens = estimateTokens(param.schema.description);
      if (tokens <= max) continue;
      ctx.report({
        pointer: `${param.pointer}/description`,
        message: `the description of "${param.name}" is about ${tokens} tokens (budget ${max})`,
        fix: 'say meaning, unit and range in one sentence',
      });
    }
  },
};

/** The whole tool as the model receives it (name, description, inputSchema). */
export const toolTokens: LintRule = {
  id: 'budget/tool-tokens',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'A whole tool definition stays within its token budget (default 500).',
  defaultOptions: { max: 500 },
  checkTool(tool, ctx) {
    const max = Number(ctx.options.max);
    const tokens = estimateToolTokens(tool.descriptor);
    if (tokens <= max) return;
    ctx.report({
      pointer: '',
      message: `the tool definition is about ${tokens} tokens (budget ${max})`,
      fix: 'shorten descriptions, drop rarely used parameters, or split the tool',
    });
  },
};

/** All tools together: past about 10k tokens, selection accuracy drops and tool search pays off. */
export const catalogTokens: LintRule = {
  id: 'budget/catalog-tokens',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'All tool definitions together stay within the catalog token budget (default 10,000).',
  defaultOptions: { max: 10000 },
  checkCatalog(catalog, ctx) {
    const max = Number(ctx.options.max);
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

/**
 * Tool count: models choose worse among many tools. Warning above 20 (OpenAI, Gemini guidance),
 * a stronger warning above 40 (Google MCP Toolbox's upper limit), error above 128 (the OpenAI and
 * VS Code hard limit: the request is rejected).
 */
export const toolCount: LintRule = {
  id: 'budget/tool-count',
  family: 'budget',
  defaultSeverity: 'warning',
  summary: 'Tool count: warning above 20, stronger warning above 40, error above 128.',
  defaultOptions: { warnAbove: 20, strongWarnAbove: 40, errorAbove: 128 },
  checkCatalog(catalog, ctx) {
    const count = catalog.tools.length;
    const warn = Number(ctx.options.warnAbove);
    const strong = Number(ctx.options.strongWarnAbove);
    const error = Number(ctx.options.errorAbove);
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
