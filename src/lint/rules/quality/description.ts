import { ORDER_WORDS, USAGE_GUIDANCE, weightedLength } from '../../text-signals.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule } from '../../types.js';

const PURPOSE_OPTIONS = { minLength: 20 };

/** The description states what the tool does: present and long enough to say it. */
export const descriptionPurpose: LintRule<typeof PURPOSE_OPTIONS> = {
  id: 'quality/description-purpose',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'The tool has a description that says what it does (at least ~20 characters).',
  defaultOptions: PURPOSE_OPTIONS,
  prepare: (options) => optionsOfDefaults(PURPOSE_OPTIONS, options),
  checkTool(tool, ctx) {
    const min = ctx.prepared.minLength;
    const raw = tool.descriptor.description;
    if (typeof raw !== 'string' || raw.trim() === '') {
      ctx.report({
        pointer: typeof raw === 'string' ? '/description' : '',
        message: 'the tool has no description; the model must guess what it does from the name',
        fix: 'add a description: what the tool does, when to use it (and when not), and what it returns',
      });
      return;
    }
    if (weightedLength(raw) < min) {
      ctx.report({
        pointer: '/description',
        message: `the description "${raw.trim()}" is too short (${weightedLength(raw)} < ${min} characters) to say what the tool does`,
        fix: 'say what the tool does and to what, e.g. "Move the arm\'s end effector to a Cartesian pose in the base frame."',
      });
    }
  },
};

/** The description says when to use the tool, so the model can choose between tools. */
export const descriptionUsage: LintRule = {
  id: 'quality/description-usage',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'The description says when to use the tool (and ideally when not to).',
  checkTool(tool, ctx) {
    if (tool.description.trim() === '') return; // quality/description-purpose already reports it
    if (USAGE_GUIDANCE.test(tool.description)) return;
    ctx.report({
      pointer: '/description',
      message: 'the description says what the tool is but not when to use it',
      fix: 'add a sentence such as "Use when ..." / "Use after ..." / "Do not use for ..."',
    });
  },
};

/**
 * A description that states an order ("after the arm has moved", "first") should name the tool
 * that comes before or after, so the model can plan the sequence.
 */
export const relatedTools: LintRule = {
  id: 'quality/related-tools',
  family: 'quality',
  defaultSeverity: 'info',
  summary: 'A description that states an order between steps names the related tool.',
  checkCatalog(catalog, ctx) {
    if (catalog.tools.length < 2) return;
    const names = catalog.tools.map((t) => t.name);
    for (const tool of catalog.tools) {
      if (!ORDER_WORDS.test(tool.description)) continue;
      const mentions = names.some((name) => name !== tool.name && name.length > 2 && tool.description.includes(name));
      if (mentions) continue;
      ctx.report({
        tool,
        pointer: '/description',
        message: 'the description states an order of steps but names no other tool of this server',
        fix: 'name the tool that must run before or after, e.g. "Use after move_arm_to_pose has brought the gripper to the object."',
      });
    }
  },
};
