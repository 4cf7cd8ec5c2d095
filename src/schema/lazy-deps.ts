import { createRequire } from 'node:module';

// The compliant engine, the linear-time regex engine, the format checks and Ajv itself are needed
// only once a validator is built; loading them on first use keeps `import 'toolwright/schema'`
// (and a server's cold start) cheap. All ship CommonJS builds, which can be loaded synchronously
// from inside compileSchema or a validator's first call. Ajv alone is ~100 files (~180 ms to load).
const require = createRequire(import.meta.url);

type Jsl = typeof import('json-schema-library');
type JslRemotes = typeof import('json-schema-library/remotes');
type JslFormats = typeof import('json-schema-library/formats');
type Re2 = typeof import('re2js');
type AjvClasses = {
  Ajv2020: typeof import('ajv/dist/2020.js').Ajv2020;
  Ajv2019: typeof import('ajv/dist/2019.js').Ajv2019;
  Ajv: typeof import('ajv').Ajv;
};

let jsl: { core: Jsl; remotes: JslRemotes['remotes']; addFormats: JslFormats['addFormats'] } | undefined;
let re2: Re2 | undefined;
let ajvFormats: unknown;
let ajv: AjvClasses | undefined;
type AjvCodegen = Pick<typeof import('ajv/dist/compile/codegen/index.js'), '_'> & Pick<typeof import('ajv/dist/compile/util.js'), 'alwaysValidSchema' | 'Type'>;
let ajvCodegen: AjvCodegen | undefined;

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

export function loadAjv(): AjvClasses {
  ajv ??= {
    Ajv2020: (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020,
    Ajv2019: (require('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019,
    Ajv: (require('ajv') as typeof import('ajv')).Ajv,
  };
  return ajv;
}

/**
 * Ajv's code-building helpers for our keyword replacements, loaded when Ajv first generates code.
 * (An ESM `import` of these CommonJS files costs ~50 ms at start-up, mostly in Node's CJS lexer.)
 */
export function loadAjvCodegen(): AjvCodegen {
  if (ajvCodegen === undefined) {
    const util = require('ajv/dist/compile/util.js') as typeof import('ajv/dist/compile/util.js');
    ajvCodegen = { _: (require('ajv/dist/compile/codegen/index.js') as typeof import('ajv/dist/compile/codegen/index.js'))._, alwaysValidSchema: util.alwaysValidSchema, Type: util.Type };
  }
  return ajvCodegen;
}
