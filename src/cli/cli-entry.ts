/**
 * Where this CLI's entry file is, for commands that start the CLI again in another process
 * (`toolwright call <module>` serving it over stdio, `toolwright install` writing a host's config).
 * Found from this file's own URL, which sits one folder below the package's `src/` or `dist/`
 * whether it runs from source, from tsc's per-file output or from a bundle in `dist/bundle/`
 * (scripts/bundle-node.mjs keeps every bundle file at that depth), so `../cli/main` names the
 * entry in each of them. Keep this module at `src/cli/`: one folder deeper and the path breaks.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI entry (`src/cli/main.ts` under tsx, else `dist/cli/main.js`) and whether it is source. */
export function cliEntry(): { main: string; fromSource: boolean } {
  const here = fileURLToPath(import.meta.url);
  const fromSource = here.endsWith('.ts');
  return { main: join(dirname(here), '..', 'cli', fromSource ? 'main.ts' : 'main.js'), fromSource };
}
