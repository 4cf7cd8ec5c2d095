import { ABBREVIATIONS, ALLOWED_SHORT_WORDS, GENERIC_TOOL_NAMES, nameSegments, nameStyle } from '../../text-signals.js';
import type { NameStyle } from '../../text-signals.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule } from '../../types.js';

const STYLE_SETTINGS = ['dominant', 'snake_case', 'camelCase', 'PascalCase', 'kebab-case', 'dot.case', 'SCREAMING_SNAKE'] as const;
type StyleSetting = (typeof STYLE_SETTINGS)[number];
const STYLE_OPTIONS = { style: 'dominant' };
const ABBREVIATION_OPTIONS: { allow: readonly string[] } = { allow: [] };

function isStyleSetting(value: string): value is StyleSetting {
  return (STYLE_SETTINGS as readonly string[]).includes(value);
}

function dominant(styles: NameStyle[]): NameStyle | undefined {
  const counts = new Map<NameStyle, number>();
  for (const style of styles) if (style !== 'lower') counts.set(style, (counts.get(style) ?? 0) + 1);
  let best: NameStyle | undefined;
  let bestCount = 0;
  for (const [style, count] of counts) if (count > bestCount) { best = style; bestCount = count; }
  return best;
}

function fitsStyle(style: NameStyle, expected: NameStyle): boolean {
  if (style === expected) return true;
  // A single lower-case word is valid snake_case, camelCase, kebab-case and dot.case.
  return style === 'lower' && expected !== 'PascalCase' && expected !== 'SCREAMING_SNAKE';
}

/**
 * Names follow one style: `snake_case` by default, or the style most names of the server already
 * use (configurable). Tool names and parameter names are judged separately.
 */
export const nameStyleRule: LintRule<StyleSetting> = {
  id: 'quality/name-style',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Tool and parameter names use one consistent style (snake_case, or the server\'s dominant style).',
  defaultOptions: STYLE_OPTIONS,
  validateOptions(options) {
    const { style } = optionsOfDefaults(STYLE_OPTIONS, options);
    return isStyleSetting(style) ? undefined : `style must be one of ${STYLE_SETTINGS.join(', ')}; got ${JSON.stringify(style)}`;
  },
  prepare(options) {
    const { style } = optionsOfDefaults(STYLE_OPTIONS, options);
    if (!isStyleSetting(style)) throw new TypeError(`style ${JSON.stringify(style)} reached prepare: validateOptions refuses it when the options are checked`);
    return style;
  },
  checkCatalog(catalog, ctx) {
    const configured = ctx.prepared;
    const toolStyles = catalog.tools.map((t) => nameStyle(t.name));
    const paramStyles = catalog.tools.flatMap((t) => t.params.map((p) => nameStyle(p.name)));
    const expectedTools = (configured === 'dominant' ? dominant(toolStyles) : configured) ?? 'snake_case';
    const expectedParams = (configured === 'dominant' ? dominant(paramStyles) : configured) ?? 'snake_case';
    catalog.tools.forEach((tool, i) => {
      const style = toolStyles[i]!;
      if (typeof tool.descriptor.name === 'string' && !fitsStyle(style, expectedTools)) {
        ctx.report({
          tool,
          pointer: '/name',
          message: `tool name "${tool.name}" is ${style}, but this server's tool names are ${expectedTools}`,
          fix: `rename it in ${expectedTools}`,
        });
      }
      for (const param of tool.params) {
        const paramStyle = nameStyle(param.name);
        if (fitsStyle(paramStyle, expectedParams)) continue;
        ctx.report({
          tool,
          pointer: param.pointer,
          message: `parameter "${param.name}" is ${paramStyle}, but this server's parameter names are ${expectedParams}`,
          fix: `rename it in ${expectedParams}`,
        });
      }
    });
  },
};

/**
 * Full words rather than cryptic abbreviations (`grasp_strategy`, not `gs`). Short segments that
 * are common words, units or axes (`x`, `id`, `url`, `mm`) are fine; the allow-list option adds more.
 */
export const nameAbbreviation: LintRule<ReadonlySet<string>> = {
  id: 'quality/name-abbreviation',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Names use full words, not cryptic abbreviations (`grasp_strategy`, not `gs`).',
  defaultOptions: ABBREVIATION_OPTIONS,
  prepare: (options) => new Set(optionsOfDefaults(ABBREVIATION_OPTIONS, options).allow.map((s) => s.toLowerCase())),
  checkTool(tool, ctx) {
    const extra = ctx.prepared;
    const judge = (name: string, pointer: string, what: string): void => {
      const cryptic = nameSegments(name).filter((seg) => {
        if (ALLOWED_SHORT_WORDS.has(seg) || extra.has(seg) || /^\d+$/.test(seg)) return false;
        return seg in ABBREVIATIONS || (seg.length <= 2 && /[a-z]/.test(seg)) || (seg.length <= 4 && !/[aeiouy]/.test(seg));
      });
      if (cryptic.length === 0) return;
      const hints = cryptic.map((seg) => (ABBREVIATIONS[seg] ? `${seg} → ${ABBREVIATIONS[seg]}` : seg)).join(', ');
      ctx.report({
        pointer,
        message: `${what} "${name}" uses cryptic abbreviations (${hints})`,
        fix: 'spell the words out, e.g. grasp_strategy instead of gs; the model reads names as meaning',
      });
    };
    if (typeof tool.descriptor.name === 'string') judge(tool.name, '/name', 'tool name');
    for (const param of tool.params) judge(param.name, param.pointer, 'parameter');
  },
};

/** Names like `search` or `run` say nothing about what the tool acts on; every server has one. */
export const genericName: LintRule = {
  id: 'quality/generic-name',
  family: 'quality',
  defaultSeverity: 'warning',
  summary: 'Tool names are specific (not just `search`, `get`, `run`, ...).',
  checkTool(tool, ctx) {
    if (typeof tool.descriptor.name !== 'string') return;
    const segments = nameSegments(tool.name);
    if (segments.length !== 1 || !GENERIC_TOOL_NAMES.has(segments[0]!)) return;
    ctx.report({
      pointer: '/name',
      message: `tool name "${tool.name}" is generic; next to other servers' tools the model cannot tell what it acts on`,
      fix: `name the object too, e.g. ${segments[0]}_issues or ${segments[0]}_device_status`,
    });
  },
};
