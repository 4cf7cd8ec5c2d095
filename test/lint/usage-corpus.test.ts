import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadToolTarget } from '../../src/cli/load-tool-target.js';
import { findUsageGuidance } from '../../src/lint/text-signals.js';
import { repoPath } from '../support/repo-paths.js';
import { thirdPartyFile } from '../support/test-deps.js';

// quality/description-usage judged on real descriptions: the tools that MCP servers published on
// npm (pinned in test-deps/third-party) list over stdio, read with our own client at test time. The verdict
// per tool (does the description say when to use the tool, or when not to?) is ours, written down
// here. docs/lint-rules.md reports the figures this test measures; the last test keeps them equal.

const node = `"${process.execPath}"`;
const workDir = mkdtempSync(join(tmpdir(), 'tw-usage-corpus-'));
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));

interface Server { package: string; command: string; verdicts: Record<string, boolean> }

const no = (...names: string[]): Record<string, boolean> => Object.fromEntries(names.map((n) => [n, false]));
const yes = (...names: string[]): Record<string, boolean> => Object.fromEntries(names.map((n) => [n, true]));

const SERVERS: Server[] = [
  {
    package: '@modelcontextprotocol/server-everything@2026.8.31',
    command: `${node} "${thirdPartyFile('@modelcontextprotocol/server-everything', 'dist/index.js')}"`,
    verdicts: {
      ...no('echo', 'get-annotated-message', 'get-resource-links', 'get-resource-reference', 'get-structured-content', 'get-sum', 'get-tiny-image',
        'gzip-file-as-resource', 'toggle-simulated-logging', 'toggle-subscriber-updates', 'trigger-long-running-operation',
        // listed only to clients that declare roots, elicitation and sampling, as our loader does
        'get-roots-list', 'simulate-research-query', 'trigger-elicitation-request', 'trigger-sampling-request'),
      ...yes('get-env'), // "helpful for debugging MCP server configuration"
    },
  },
  {
    package: '@modelcontextprotocol/server-filesystem@2026.8.31',
    command: `${node} "${thirdPartyFile('@modelcontextprotocol/server-filesystem', 'dist/index.js')}" ${JSON.stringify(workDir)}`,
    verdicts: {
      // "DEPRECATED: Use read_text_file instead", "Use this tool when you need ...", "Use with caution", "Perfect for ...",
      // "essential for understanding ...", "useful for ...", "can be used for simple renaming", "Great for finding files when ...",
      // "perfect for understanding ... without reading", "Use this to understand ... before trying to access files"
      ...yes('read_file', 'read_text_file', 'read_multiple_files', 'write_file', 'create_directory', 'list_directory', 'list_directory_with_sizes',
        'move_file', 'search_files', 'get_file_info', 'list_allowed_directories'),
      ...no('read_media_file', 'edit_file', 'directory_tree'), // what they do and that they stay inside allowed directories: a limit, not when
    },
  },
  {
    package: '@modelcontextprotocol/server-memory@2026.8.31',
    command: `${node} "${thirdPartyFile('@modelcontextprotocol/server-memory', 'dist/index.js')}"`,
    verdicts: no('create_entities', 'create_relations', 'add_observations', 'delete_entities', 'delete_observations', 'delete_relations', 'read_graph', 'search_nodes', 'open_nodes'),
  },
  {
    package: '@modelcontextprotocol/server-sequential-thinking@2026.8.31',
    command: `${node} "${thirdPartyFile('@modelcontextprotocol/server-sequential-thinking', 'dist/index.js')}"`,
    verdicts: yes('sequentialthinking'), // "When to use this tool: ..."
  },
  {
    package: '@modelcontextprotocol/server-github@2025.4.8',
    command: `${node} "${thirdPartyFile('@modelcontextprotocol/server-github', 'dist/index.js')}"`,
    verdicts: no('create_or_update_file', 'search_repositories', 'create_repository', 'get_file_contents', 'push_files', 'create_issue', 'create_pull_request',
      'fork_repository', 'create_branch', 'list_commits', 'list_issues', 'update_issue', 'add_issue_comment', 'search_code', 'search_issues', 'search_users',
      'get_issue', 'get_pull_request', 'list_pull_requests', 'create_pull_request_review', 'merge_pull_request', 'get_pull_request_files',
      'get_pull_request_status', 'update_pull_request_branch', 'get_pull_request_comments', 'get_pull_request_reviews'),
  },
  {
    package: '@playwright/mcp@0.0.83',
    command: `${node} "${thirdPartyFile('@playwright/mcp', 'cli.js')}" --headless`,
    verdicts: {
      // "cheaper than capturing the whole snapshot when you only need ...", "Use browser_network_request with the number ...",
      // "Use the number from browser_network_requests", "use browser_snapshot for actions", "better than screenshot"
      ...yes('browser_find', 'browser_network_requests', 'browser_network_request', 'browser_take_screenshot', 'browser_snapshot'),
      ...no('browser_close', 'browser_resize', 'browser_console_messages', 'browser_handle_dialog', 'browser_emulate_media', 'browser_evaluate',
        'browser_file_upload', 'browser_drop', 'browser_fill_form', 'browser_press_key', 'browser_type', 'browser_navigate', 'browser_navigate_back',
        'browser_run_code_unsafe', 'browser_click', 'browser_drag', 'browser_hover', 'browser_select_option', 'browser_tabs', 'browser_wait_for'),
    },
  },
];

interface Tally { tp: number; fp: number; fn: number; tn: number; misses: string[] }

function tally(cases: Array<{ id: string; description: string; usage: boolean }>): Tally {
  const t: Tally = { tp: 0, fp: 0, fn: 0, tn: 0, misses: [] };
  for (const c of cases) {
    const found = findUsageGuidance(c.description) !== undefined;
    if (found && c.usage) t.tp++;
    else if (found) { t.fp++; t.misses.push(`false positive ${c.id}: ${JSON.stringify(findUsageGuidance(c.description))}`); }
    else if (c.usage) { t.fn++; t.misses.push(`false negative ${c.id}`); }
    else t.tn++;
  }
  return t;
}

const measured = new Map<string, Tally>();
const listedProblems: string[] = [];
let realCount = 0;

// Both sets are measured once; each test below checks one claim about the result.
before(async () => {
  const cases: Array<{ id: string; description: string; usage: boolean }> = [];
  for (const server of SERVERS) {
    const { tools } = await loadToolTarget(server.command, { stdio: true, timeoutMs: 60_000 });
    const listed = (tools as Array<{ name: string }>).map((t) => t.name).sort();
    const judged = Object.keys(server.verdicts).sort();
    if (JSON.stringify(listed) !== JSON.stringify(judged)) listedProblems.push(`${server.package} lists ${listed.join(',')} but we judged ${judged.join(',')}`);
    for (const tool of tools as Array<{ name: string; description?: string }>) {
      if (tool.name in server.verdicts) cases.push({ id: `${server.package} ${tool.name}`, description: tool.description ?? '', usage: server.verdicts[tool.name]! });
    }
  }
  realCount = cases.length;
  measured.set('npm', tally(cases));
  const data = JSON.parse(readFileSync(repoPath('test/fixtures/lint/usage/chinese.json'), 'utf8')) as { cases: Array<{ from: string; name: string; usage: boolean; description: string }> };
  measured.set('chinese', tally(data.cases.map((c) => ({ id: `${c.from} ${c.name}`, description: c.description, usage: c.usage }))));
});

const precision = (t: Tally) => t.tp / (t.tp + t.fp);
const recall = (t: Tally) => t.tp / (t.tp + t.fn);

test('the npm servers list exactly the tools we judged (at least 50 real descriptions)', () => {
  assert.deepEqual(listedProblems, []);
  assert.ok(realCount >= 50, `only ${realCount} real descriptions`);
});

test('real npm descriptions: precision and recall >= 0.9', () => {
  const t = measured.get('npm')!;
  assert.ok(precision(t) >= 0.9 && recall(t) >= 0.9, `precision ${precision(t)}, recall ${recall(t)}: ${t.misses.join('; ')}`);
});

test('Chinese descriptions (the seed guide\'s examples and ours): precision and recall >= 0.9', () => {
  const t = measured.get('chinese')!;
  assert.ok(precision(t) >= 0.9 && recall(t) >= 0.9, t.misses.join('; '));
});

test('docs/lint-rules.md reports the figures measured here', () => {
  const docs = readFileSync(repoPath('docs/lint-rules.md'), 'utf8');
  for (const [set, t] of measured) {
    const line = `| ${set} | ${t.tp + t.fp + t.fn + t.tn} | ${t.tp + t.fn} | ${t.tp} | ${t.fp} | ${t.fn} | ${precision(t).toFixed(2)} | ${recall(t).toFixed(2)} |`;
    assert.ok(docs.includes(line), `docs/lint-rules.md lacks the row: ${line}`);
  }
});
