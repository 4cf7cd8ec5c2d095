import { isJsonObject } from '../json/json-object.js';
import { escapePointerToken } from '../schema/index.js';

import type { LintRule, WireTool } from './types.js';

/**
 * The `_meta` key of an inline opt-out. Its value maps rule ids to the reason they do not apply
 * to this tool: `"_meta": {"dev.toolwright/lint-disable": {"quality/param-count": "mirrors the vendor API 1:1"}}`.
 */
export const INLINE_OPT_OUT_KEY = 'dev.toolwright/lint-disable';

/** An inline opt-out as read from a tool. */
export interface InlineOptOut {
  rule: string;
  reason: string;
}

/** A malformed inline opt-out, reported as `lint/opt-out-invalid`. */
export interface InlineOptOutProblem {
  pointer: string;
  message: string;
}

/** Reads a tool's inline opt-outs; entries without a reason or for unknown rules are problems, not opt-outs. */
export function readInlineOptOuts(tool: WireTool, knownRules: ReadonlySet<string>): { optOuts: InlineOptOut[]; problems: InlineOptOutProblem[] } {
  const optOuts: InlineOptOut[] = [];
  const problems: InlineOptOutProblem[] = [];
  const meta = tool._meta;
  if (!isJsonObject(meta) || !Object.prototype.hasOwnProperty.call(meta, INLINE_OPT_OUT_KEY)) return { optOuts, problems };
  const base = `/_meta/${escapePointerToken(INLINE_OPT_OUT_KEY)}`;
  const value = meta[INLINE_OPT_OUT_KEY];
  if (!isJsonObject(value)) {
    problems.push({ pointer: base, message: `${INLINE_OPT_OUT_KEY} must map rule ids to reasons, e.g. {"quality/param-count": "why it does not apply"}` });
    return { optOuts, problems };
  }
  for (const [rule, reason] of Object.entries(value)) {
    const pointer = `${base}/${escapePointerToken(rule)}`;
    if (!knownRules.has(rule)) {
      problems.push({ pointer, message: `opt-out names unknown rule "${rule}"` });
    } else if (typeof reason !== 'string' || reason.trim() === '') {
      problems.push({ pointer, message: `opt-out of "${rule}" has no reason; an opt-out must say why the rule does not apply` });
    } else {
      optOuts.push({ rule, reason: reason.trim() });
    }
  }
  return { optOuts, problems };
}

/**
 * Rules about the lint run itself. Their findings are produced by the engine (they need the
 * other rules' ids), so the rule objects only carry metadata.
 */
export const optOutInvalid: LintRule = {
  id: 'lint/opt-out-invalid',
  family: 'lint',
  defaultSeverity: 'error',
  summary: 'Inline opt-outs name a known rule and give a reason.',
};

export const toolObject: LintRule = {
  id: 'lint/tool-object',
  family: 'lint',
  defaultSeverity: 'error',
  summary: 'Every entry of the tools list is a JSON object.',
};

export const LINT_META_RULES: readonly LintRule[] = [optOutInvalid, toolObject];
