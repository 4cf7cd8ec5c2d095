/** The README's steps for using Toolwright in another project, as the package tests run them. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { repoPath } from '../support/repo-paths.js';

/**
 * The README's adopter section: its `// file:` tool module, and from its bash blocks the
 * `npm install` lines and the `npx toolwright` lines, comments cut.
 */
export function readmeAdopterSteps(): { file: string; text: string; installs: string[]; commands: string[] } {
  const readme = readFileSync(repoPath('README.md'), 'utf8');
  const start = readme.indexOf('## Use it in your own project');
  assert.ok(start >= 0, 'the README has no "Use it in your own project" section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const module = /```ts\n\/\/ file: (\S+)\n([\s\S]*?)```/.exec(section);
  assert.ok(module, 'the adopter section has no `// file:` TypeScript block');
  const lines = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split('\n')).map((line) => line.replace(/\s+#.*$/, ''));
  return {
    file: module[1]!,
    text: module[2]!,
    installs: lines.filter((line) => line.startsWith('npm install ')),
    commands: lines.filter((line) => line.startsWith('npx toolwright ')),
  };
}

