import { createRequire } from 'node:module';

// The compliant engine, the linear-time regex engine and the format checks are needed only by
// some schemas; loading them on first use keeps `import 'toolwright/schema'` cheap. All three
// ship CommonJS builds, which can be loaded synchronously from inside compileSchema.
const require = createRequire(import.meta.url);

type Jsl = typeof import('json-schema-library');
type JslRemotes = typeof import('json-schema-library/remotes');
type JslFormats = typeof import('json-schema-library/formats');
type Re2 = typeof import('re2js');

let jsl: { core: Jsl; remotes: JslRemotes['remotes']; addFormats: JslFormats['addFormats'] } | undefined;
let re2: Re2 | undefined;
let ajvFormats: unknown;

export function loadJsl(): NonNullable<typeof jsl> {
  jsl ??= {
    core: require('json-schema-library') as Jsl,
    remotes: (require('json-schema-library/remotes') as JslRemotes).remotes,
    addFormats: (require('json-schema-library/formats') as JslFormats).addFormats,
  };
  return jsl;
}

export function loadRe2(): Re2 {
  re2 ??= require('re2js') as Re2;
  return re2;
}

export function loadAjvFormats(): unknown {
  ajvFormats ??= require('ajv-formats');
  return ajvFormats;
}
