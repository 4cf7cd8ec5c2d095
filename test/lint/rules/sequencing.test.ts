import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintTools } from '../../../src/lint/engine.js';
import { parseLintConfig } from '../../../src/lint/config.js';
import { BUILTIN_RULES } from '../../../src/lint/rules/index.js';

const tool = (name: string, description: string, extra: Record<string, unknown> = {}) => ({ name, description, inputSchema: { type: 'object', properties: {}, additionalProperties: false }, ...extra });
const named = parseLintConfig({ rules: { 'quality/prerequisite-tool': { options: { checkNamedTools: true } } } }, BUILTIN_RULES);
const findings = (rule: string, tools: unknown[], config = named) => lintTools(tools, { config }).findings.filter((f) => f.ruleId === rule).map((f) => `${f.tool ?? '(catalog)'}: ${f.message}`);

test('prerequisite-tool: names of missing tools are checked only with checkNamedTools (an identifier in prose is not always a tool)', () => {
  const tools = [tool('lift_pallet', 'Lift the pallet. Use after drive_to_shelf has stopped the cart.')];
  assert.deepEqual(findings('quality/prerequisite-tool', tools, parseLintConfig({}, BUILTIN_RULES)), []);
  assert.deepEqual(findings('quality/prerequisite-tool', tools), ['lift_pallet: the description names "drive_to_shelf" as a step before or after this tool, but this server has no tool "drive_to_shelf"']);
});

test('prerequisite-tool: "Use before X" makes this tool X\'s prerequisite, not the reverse; existing tools and parameter names are fine', () => {
  const tools = [
    tool('get_object_pose', 'Find objects. Use before move_arm_to_pose to pick a target.'),
    { ...tool('grasp', 'Close the gripper at target_position. Use after get_object_pose; read the pose from target_position.'),
      inputSchema: { type: 'object', properties: { target_position: { type: 'object' } } } },
  ];
  assert.deepEqual(findings('quality/prerequisite-tool', tools), []);
});

test('prerequisite-tool: Chinese hints (先调用X, X之后) and "call X first" are read', () => {
  assert.deepEqual(findings('quality/prerequisite-tool', [tool('grasp', '抓取物体。抓取前通常需要先调用move_to_pose将机械臂移动到物体附近。')]), ['grasp: the description names "move_to_pose" as a step before or after this tool, but this server has no tool "move_to_pose"']);
  assert.deepEqual(findings('quality/prerequisite-tool', [tool('grasp', '抓取物体。在 move_to_pose 之后使用。')]).length, 1);
  assert.deepEqual(findings('quality/prerequisite-tool', [tool('grasp', 'Grasp. Call home_arm first.')]).length, 1);
});

test('prerequisite-tool: a required id that another tool returns must come with a hint naming that tool', () => {
  const plan = { ...tool('plan_route', 'Plan a route.'), outputSchema: { type: 'object', properties: { plan_id: { type: 'string' } } } };
  const run = (description: string, required = true) => ({ name: 'execute_route', description, inputSchema: { type: 'object', properties: { plan_id: { type: 'string' } }, required: required ? ['plan_id'] : [], additionalProperties: false } });
  assert.deepEqual(findings('quality/prerequisite-tool', [plan, run('Drive it.')]), ['execute_route: "plan_id" comes from plan_route, but the description does not say to call it first']);
  assert.deepEqual(findings('quality/prerequisite-tool', [plan, run('Drive it. Use after plan_route.')]), []);
  assert.deepEqual(findings('quality/prerequisite-tool', [plan, run('Drive it.', false)]), []);
  // A producer found by name: create_session makes what session_id refers to.
  const session = { name: 'send_message', description: 'Send a message.', inputSchema: { type: 'object', properties: { session_id: { type: 'string' } }, required: ['session_id'] } };
  assert.deepEqual(findings('quality/prerequisite-tool', [tool('create_session', 'Open a chat session.'), session]), ['send_message: "session_id" comes from create_session, but the description does not say to call it first']);
});

test('state-query-tool: warns once when state-dependent action tools have nothing that reads state; read-only and unrelated catalogs pass', () => {
  const start = tool('start_pump', 'Start the pump. Fails if the pump is already running.');
  assert.deepEqual(findings('quality/state-query-tool', [start, tool('stop_pump', 'Stop the pump. Use when the job is done.')]), ['(catalog): start_pump depends on the state it is called in, but no tool reads that state: a model can only find out by calling and failing, again and again']);
  assert.deepEqual(findings('quality/state-query-tool', [start, tool('check_pump_state', 'Tell whether the pump runs.')]), []);
  assert.deepEqual(findings('quality/state-query-tool', [start, tool('pump_report', 'Report the pump status.', { annotations: { readOnlyHint: true } })]), []);
  assert.deepEqual(findings('quality/state-query-tool', [tool('start_pump', 'Start the pump.')]), []);
  assert.deepEqual(findings('quality/state-query-tool', [tool('move_arm', '移动机械臂。机械臂处于急停状态时会被拒绝。')]).length, 1);
});
