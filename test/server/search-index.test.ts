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

const tool = (name: string, description: string) => defineTool({ name, description, inputSchema: { type: 'object' }, run: () => 'ok' });

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
