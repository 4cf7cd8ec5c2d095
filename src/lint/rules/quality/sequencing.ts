import { isJsonObject } from '../../../json/json-object.js';
import { schemaTypes } from '../../tool-view.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule, ToolView } from '../../types.js';

const IDENTIFIER = String.raw`[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+`;
/**
 * A step named as this tool's prerequisite: "after move_arm_to_pose", "call plan_trajectory first",
 * "the plan_id returned by plan_trajectory", "先调用move_arm_to_pose". "Use before X" is not one: there
 * this tool is X's prerequisite.
 */
const PREREQUISITE_MENTION = new RegExp([
  String.raw`\b(?:after|requires?|needs?|returned by|planned by|created by|produced by|from)\s+(?:calling\s+|running\s+|using\s+)?[\`'"]?(${IDENTIFIER})\b`,
  String.raw`\b(?:call|run|use|invoke)\s+[\`'"]?(${IDENTIFIER})[\`'"]?\s+first\b`,
  String.raw`(?:先调用|先使用|先执行)\s*(${IDENTIFIER})|(${IDENTIFIER})\s*(?:之后|以后)`,
].join('|'), 'gi');
/** Verbs of tools that create what another tool then takes by id. */
const PRODUCER_VERB = /^(?:create|plan|open|start|add|new|make|register|upload|begin|submit|generate|prepare|book|reserve|init|initialize|schedule|launch|spawn)(?:_|$)/i;
/** `plan_id`, `sessionId`, `job-id`: a parameter that refers to something made by another call. */
const ID_PARAM = /^([a-z][a-z0-9]*)(?:_id|Id|-id)$/;

function outputProperties(tool: ToolView): Set<string> {
  const schema = tool.descriptor.outputSchema;
  return new Set(isJsonObject(schema) && isJsonObject(schema.properties) ? Object.keys(schema.properties) : []);
}

const PREREQUISITE_OPTIONS = { checkNamedTools: false };

/**
 * A tool that needs another tool first says so, and names a tool that exists (seed guide §5.2:
 * "抓取前通常需要先调用move_arm_to_pose"). By default: a required `<thing>_id` parameter that another
 * tool of the catalog produces (it returns that field, or its name creates the thing) while the
 * description names none of those tools. With `checkNamedTools`: also a description that names a
 * prerequisite by an identifier this server does not offer (renamed or removed tools, or tools a
 * mode leaves out, leave such hints behind). It is opt-in because an identifier in prose is not
 * always a tool name.
 */
export const prerequisiteTool: LintRule<typeof PREREQUISITE_OPTIONS> = {
  id: 'quality/prerequisite-tool',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'A tool that needs another tool first names it, and the tool it names exists in the catalog.',
  defaultOptions: PREREQUISITE_OPTIONS,
  prepare: (options) => optionsOfDefaults(PREREQUISITE_OPTIONS, options),
  checkCatalog(catalog, ctx) {
    const checkNamed = ctx.prepared.checkNamedTools;
    const names = new Set(catalog.tools.map((t) => t.name));
    // Each tool's output properties once (not once per pair of tools), and the producers of each
    // id parameter once per parameter name: a 1,000-tool catalog with a common `plan_id` would
    // otherwise build a million sets.
    const outputs = new Map(catalog.tools.map((tool) => [tool, outputProperties(tool)]));
    const allProperties = new Set<string>();
    for (const tool of catalog.tools) {
      for (const param of tool.params) allProperties.add(param.name);
      for (const name of outputs.get(tool)!) allProperties.add(name);
    }
    const producersOf = new Map<string, readonly ToolView[]>();
    const producersFor = (paramName: string, stem: string): readonly ToolView[] => {
      let producers = producersOf.get(paramName);
      if (producers === undefined) {
        const lowerStem = stem.toLowerCase();
        producers = catalog.tools.filter((other) => outputs.get(other)!.has(paramName) || (PRODUCER_VERB.test(other.name) && other.name.toLowerCase().includes(lowerStem)));
        producersOf.set(paramName, producers);
      }
      return producers;
    };
    for (const tool of catalog.tools) {
      for (const match of checkNamed ? tool.description.matchAll(PREREQUISITE_MENTION) : []) {
        const named = match.slice(1).find((m) => m !== undefined) ?? '';
        if (named === '' || names.has(named) || allProperties.has(named)) continue;
        ctx.report({
          tool,
          pointer: '/description',
          message: `the description names "${named}" as a step before or after this tool, but this server has no tool "${named}"`,
          fix: `name the tool as the catalog calls it (${[...names].filter((n) => n !== tool.name).slice(0, 5).join(', ') || 'no other tools'}), or drop the hint if the step is gone`,
        });
        break;
      }
      for (const param of tool.topLevel) {
        const stem = ID_PARAM.exec(param.name)?.[1];
        if (stem === undefined || !param.required || !schemaTypes(param.schema).some((t) => t === 'string' || t === 'integer')) continue;
        const producers = producersFor(param.name, stem).filter((other) => other !== tool);
        if (producers.length === 0 || producers.some((p) => tool.description.includes(p.name))) continue;
        ctx.report({
          tool,
          pointer: '/description',
          message: `"${param.name}" comes from ${producers.map((p) => p.name).join(' or ')}, but the description does not say to call ${producers.length > 1 ? 'one of them' : 'it'} first`,
          fix: `add a prerequisite hint, e.g. "Use after ${producers[0]!.name}; pass the ${param.name} it returns."`,
        });
      }
    }
  },
};

/** Tools whose name says they change something. */
const ACTION_VERB = /^(?:move|grasp|grip|release|drop|pick|place|execute|run|start|stop|pause|resume|set|write|delete|remove|create|update|send|open|close|push|merge|deploy|launch|cancel|submit|apply|reset|enable|disable|turn|rotate|drive|lock|unlock|home|calibrate|trigger|toggle|fire|dispense|charge|park)(?:_|$)/i;
/** Descriptions that say the tool depends on the state it is called in. */
const STATE_DEPENDENT = /\b(?:fails?|refused?|refuses|rejects?|rejected|errors?) (?:if|when|unless|while)\b|\bwhile (?:the |it |already |still )|\balready\b|\b(?:must|needs to) (?:be|have)\b|\bwrong state\b|\b(?:is|are) (?:idle|busy|running|moving|stopped|connected|open|closed|locked|ready|holding)\b|\bnot (?:yet )?(?:ready|connected|started|running|open|idle|holding)\b|状态|空闲|已经|正在|尚未|未连接|处于/i;
/** Tools that read state. */
const QUERY_VERB = /^(?:get|read|query|check|describe|show|fetch|inspect|status|poll|watch|list|is|has)(?:_|$)/i;
const STATE_NOUN = /status|state|health|info|mode|progress|pose|position|exists|ready|状态/i;

function isReadOnly(tool: ToolView): boolean {
  const annotations = tool.descriptor.annotations;
  return isJsonObject(annotations) && annotations.readOnlyHint === true;
}

/**
 * Action tools that fail in the wrong state need a way to look at the state first (seed guide §6.1:
 * "缺少状态检查工具 → 增加状态查询工具并在主工具description里提示先查询状态"). Reported once per
 * catalog, only when no state-query tool exists.
 */
export const stateQueryTool: LintRule = {
  id: 'quality/state-query-tool',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'A catalog whose action tools depend on state offers a tool that reads that state.',
  checkCatalog(catalog, ctx) {
    const stateful = catalog.tools.filter((t) => !isReadOnly(t) && ACTION_VERB.test(t.name) && STATE_DEPENDENT.test(t.description));
    if (stateful.length === 0) return;
    const hasQuery = catalog.tools.some((t) => !stateful.includes(t) && (isReadOnly(t) || QUERY_VERB.test(t.name)) && (STATE_NOUN.test(t.name) || /\b(?:status|state)\b|状态/i.test(t.description)));
    if (hasQuery) return;
    const listed = stateful.map((t) => t.name);
    ctx.report({
      pointer: '',
      message: `${listed.join(', ')} ${listed.length > 1 ? 'depend' : 'depends'} on the state ${listed.length > 1 ? 'they are' : 'it is'} called in, but no tool reads that state: a model can only find out by calling and failing, again and again`,
      fix: 'add a read-only state-query tool (e.g. get_device_status, annotations.readOnlyHint: true) and say in the action tools\' descriptions to check it first',
    });
  },
};
