/**
 * What the search index takes as a word: symbols separate words as punctuation does, so names
 * written in backticks and media types joined with `+` are found by their plain words (the index
 * is searched in process here; test/server/search-surface.test.ts covers the tool over HTTP).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool } from '../../src/index.js';
import { ToolSearchIndex } from '../../src/server/search/search-index.js';
import { registerTools } from '../../src/server/tools/tool-registry.js';

const tool = (name: string, description: string, properties: Record<string, { type: 'string'; description: string }> = {}) =>
  defineTool({ name, description, inputSchema: { type: 'object', properties }, run: () => 'ok' });

function indexOf(...tools: ReturnType<typeof tool>[]): ToolSearchIndex {
  return new ToolSearchIndex(registerTools(tools, { canAuthorize: false }));
}
const names = (index: ToolSearchIndex, query: string) => index.search(query, () => true, 10).map((found) => found.name);

describe('search index words', () => {
  it('a word in backticks is the word: found by an exact search, ranked above a prefix match', () => {
    const index = indexOf(
      tool('archive_reports', 'Archive the quarterly reports.'),
      tool('archive_target', 'Archive the `repo` given, with its issues.'),
    );
    assert.deepEqual(names(index, 'repo'), ['archive_target', 'archive_reports']);
  });

  it('a media type joined with + is found by each of its words', () => {
    const index = indexOf(tool('render_markdown', 'Renders Markdown. Send it as application/vnd.github+json.'), tool('other', 'Something else entirely.'));
    assert.deepEqual(names(index, 'json'), ['render_markdown']);
    assert.deepEqual(names(index, 'github'), ['render_markdown']);
  });

  it('a query written with symbols is split the same way', () => {
    const index = indexOf(tool('get_repo', 'Get one repository by owner and name.'), tool('other', 'Something else entirely.'));
    assert.deepEqual(names(index, '`owner`+`name`'), ['get_repo']);
  });
});

describe('words common in the parameters', () => {
  // `repo` is a parameter of every tool but one, as in GitHub's catalog: the search leaves those
  // parameters out for `repo` and still ranks by the names and summaries that say it.
  const repoParameter = { repo: { type: 'string' as const, description: 'The repository name.' } };
  const fillers = Array.from({ length: 12 }, (_, i) => tool(`issues_action_${i}`, `Issue action number ${i}.`, repoParameter));

  it('a tool that says the word in its name or summary ranks above those that only take it as a parameter', () => {
    const index = indexOf(...fillers, tool('repos_get', 'Get a repository.', repoParameter), tool('orgs_get', 'Get an organization.'));
    assert.deepEqual(index.search('repo', () => true, 1).map((found) => found.name), ['repos_get']);
    const found = names(index, 'repo organization');
    assert.deepEqual(found.slice(0, 2).sort(), ['orgs_get', 'repos_get'], 'each word\'s own tool first, the parameter matches after');
    assert.equal(found.length, 10);
  });

  it('when the narrowed search finds fewer tools than asked for, the parameters count again: nothing is lost', () => {
    const index = indexOf(...fillers, tool('orgs_get', 'Get an organization.'));
    // Only parameters say "repo": all 12 tools that take it are found, as without the narrowing.
    assert.deepEqual(new Set(index.search('repo', () => true, 20).map((found) => found.name)), new Set(fillers.map((filler) => filler.name)));
    assert.equal(index.search('repo', () => true, 5).length, 5);
  });

  it('a tool the caller may not see is never returned, on either search', () => {
    const index = indexOf(...fillers, tool('repos_get', 'Get a repository.', repoParameter));
    // The narrowed search would find repos_get alone; hidden, it finds nothing and the whole query runs.
    const found = index.search('repo', (tool) => tool.name !== 'repos_get' && tool.name !== 'issues_action_3', 20).map((tool) => tool.name);
    assert.deepEqual(new Set(found), new Set(fillers.map((filler) => filler.name).filter((name) => name !== 'issues_action_3')));
  });
});
