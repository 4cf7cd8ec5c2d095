import { isJsonObject } from '../../../json/json-object.js';
import { schemaTypes } from '../../tool-view.js';
import { SWITCH_NAME } from '../../text-signals.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule, ParamInfo, ToolView } from '../../types.js';

function enumValues(param: ParamInfo): string[] {
  if (!isJsonObject(param.schema) || !Array.isArray(param.schema.enum)) return [];
  return param.schema.enum.filter((v): v is string => typeof v === 'string');
}

/** True when a oneOf/anyOf/if branch of inputSchema keys on `name` with a const or enum. */
function branchesOn(tool: ToolView, name: string): boolean {
  const root = tool.descriptor.inputSchema;
  if (!isJsonObject(root)) return false;
  const branches: unknown[] = [];
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(root[keyword])) branches.push(...(root[keyword] as unknown[]));
  if (root.if !== undefined) branches.push(root.if);
  for (const branch of branches) {
    const candidates = isJsonObject(branch) && Array.isArray(branch.allOf) ? [branch, ...branch.allOf] : [branch];
    for (const candidate of candidates) {
      if (!isJsonObject(candidate) || !isJsonObject(candidate.if ?? candidate)) continue;
      const props = isJsonObject(candidate.if) ? candidate.if.properties : candidate.properties;
      if (isJsonObject(props) && isJsonObject(props[name]) && ((props[name] as Record<string, unknown>).const !== undefined || Array.isArray((props[name] as Record<string, unknown>).enum))) return true;
    }
  }
  return false;
}

const ONE_JOB_OPTIONS = { minOtherOptional: 2 };

/**
 * One tool, one job: an `action`/`mode`/`operation` enum that decides which other parameters apply
 * turns one tool into several sharing a muddled parameter space (the `robot_control` anti-example).
 * Flagged when such a switch exists and either schema branches key on it, or there are at least
 * `minOtherOptional` other optional parameters it could be switching between.
 */
export const oneToolOneJob: LintRule<typeof ONE_JOB_OPTIONS> = {
  id: 'quality/one-tool-one-job',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'No action/mode/operation switch that changes which parameters apply; split such a tool.',
  defaultOptions: ONE_JOB_OPTIONS,
  prepare: (options) => optionsOfDefaults(ONE_JOB_OPTIONS, options),
  checkTool(tool, ctx) {
    const minOther = ctx.prepared.minOtherOptional;
    for (const param of tool.topLevel) {
      const types = schemaTypes(param.schema);
      if (!SWITCH_NAME.test(param.name) || (types.length > 0 && !types.includes('string'))) continue;
      const values = enumValues(param);
      if (values.length < 2) continue;
      const otherOptional = tool.topLevel.filter((p) => p !== param && !p.required).length;
      if (!branchesOn(tool, param.name) && otherOptional < minOther) continue;
      const base = tool.name.replace(/[_-]?(?:control|manage|manager|tool|ops|operations|actions?)$/i, '') || tool.name;
      const suggestion = values.slice(0, 6).map((v) => `${v.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase()}_${base}`.replace(/_+/g, '_')).join(', ');
      ctx.report({
        pointer: param.pointer,
        message: `"${param.name}" switches this tool between ${values.length} jobs (${values.join(', ')}) that use different parameters`,
        fix: `split into one tool per ${param.name}, each with only its own parameters (e.g. ${suggestion})`,
      });
    }
  },
};
