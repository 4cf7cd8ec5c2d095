import { describeCodePoint, EXFILTRATION_HINTS, HIDDEN_CHARACTER, INJECTION_PHRASES, PERSUASION_WORDS, URL_OR_EMAIL } from '../../text-signals.js';
import { modelFacingText, proseText } from './model-facing-text.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule } from '../../types.js';

function excerpt(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 20);
  const end = Math.min(text.length, index + length + 20);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

/** Invisible or direction-changing characters hide text from the human reviewing a tool. */
export const hiddenUnicode: LintRule = {
  id: 'security/hidden-unicode',
  family: 'security',
  defaultSeverity: 'error',
  summary: 'No hidden, invisible or bidirectional-control Unicode in names, descriptions or schema text.',
  checkTool(tool, ctx) {
    for (const site of modelFacingText(tool.descriptor)) {
      const match = HIDDEN_CHARACTER.exec(site.text);
      if (!match) continue;
      let count = 0;
      for (const ch of site.text) if (HIDDEN_CHARACTER.test(ch)) count++;
      ctx.report({
        pointer: site.pointer,
        message: `${count} hidden character${count === 1 ? '' : 's'} in this text, first ${describeCodePoint(match[0])} at offset ${match.index}: a reviewer does not see what the model reads`,
        fix: 'remove invisible and bidirectional control characters; if the text needs them, it is not a tool description',
      });
    }
  },
};

/** Sentences addressed to the model rather than describing the tool: the classic tool-poisoning attack. */
export const promptInjection: LintRule = {
  id: 'security/prompt-injection',
  family: 'security',
  defaultSeverity: 'error',
  summary: 'Descriptions contain no instructions aimed at the model ("ignore previous", "do not tell the user", ...).',
  checkTool(tool, ctx) {
    for (const site of proseText(tool.descriptor)) {
      const match = INJECTION_PHRASES.exec(site.text);
      if (!match) continue;
      ctx.report({
        pointer: site.pointer,
        message: `instruction aimed at the model: "${excerpt(site.text, match.index, match[0].length)}"`,
        fix: 'describe what the tool does; never tell the model what to do with other tools, the user or its instructions',
      });
    }
  },
};

/** Urgency and superlatives steer tool choice (10× usage shifts are measured); often a precursor of poisoning. */
export const persuasiveWording: LintRule = {
  id: 'security/persuasive-wording',
  family: 'security',
  defaultSeverity: 'warning',
  summary: 'Descriptions avoid urgency and steering words ("IMPORTANT", "crucial", "always prefer this").',
  checkTool(tool, ctx) {
    for (const site of proseText(tool.descriptor)) {
      const match = PERSUASION_WORDS.exec(site.text);
      if (!match) continue;
      ctx.report({
        pointer: site.pointer,
        message: `steering wording "${match[0]}" in "${excerpt(site.text, match.index, match[0].length)}"`,
        fix: 'state facts about the tool; let the model choose on merit',
      });
    }
  },
};

/** Hints at reading secrets or sending data out (mcp-scan's exfiltration patterns). */
export const exfiltration: LintRule = {
  id: 'security/exfiltration',
  family: 'security',
  defaultSeverity: 'error',
  summary: 'Descriptions do not ask for secrets, private files or conversation data to be read or sent anywhere.',
  checkTool(tool, ctx) {
    for (const site of proseText(tool.descriptor)) {
      const match = EXFILTRATION_HINTS.exec(site.text);
      if (!match) continue;
      ctx.report({
        pointer: site.pointer,
        message: `data-exfiltration hint: "${excerpt(site.text, match.index, match[0].length)}"`,
        fix: 'remove it; a tool description has no reason to mention credentials, private files or where to send data',
      });
    }
  },
};

const URL_OPTIONS: { allow: readonly string[] } = { allow: [] };

/** URLs and addresses in model-facing prose are where injected instructions point data. */
export const urlInDescription: LintRule<readonly string[]> = {
  id: 'security/url-in-description',
  family: 'security',
  defaultSeverity: 'warning',
  summary: 'Descriptions contain no URLs or e-mail addresses unless allow-listed.',
  defaultOptions: URL_OPTIONS,
  prepare: (options) => optionsOfDefaults(URL_OPTIONS, options).allow,
  checkTool(tool, ctx) {
    const allow = ctx.prepared;
    for (const site of proseText(tool.descriptor)) {
      for (const match of site.text.matchAll(URL_OR_EMAIL)) {
        const found = match[0];
        if (allow.some((prefix) => found.startsWith(prefix))) continue;
        ctx.report({
          pointer: site.pointer,
          message: `${found.includes('@') && !found.startsWith('http') ? 'e-mail address' : 'URL'} ${found} in model-facing text`,
          fix: 'remove it, or allow-list it in the config (rules."security/url-in-description".options.allow) if it is documentation',
        });
        break;
      }
    }
  },
};
