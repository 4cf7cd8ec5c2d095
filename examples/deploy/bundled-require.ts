/**
 * Stands in for `node:module` in the Worker bundle (build-worker.ts maps `node:module` here).
 *
 * Why: the schema engine loads Ajv, json-schema-library, re2js and ajv-formats on first use through
 * `createRequire(import.meta.url)` (src/schema/lazy-deps.ts), to keep a Node server's cold start
 * cheap. A bundler cannot see through that, and workerd has no `node_modules` to load from at run
 * time (and no `import.meta.url` to resolve against). Here the same specifiers are plain `require`
 * calls, which esbuild does see, so those packages go into the one bundle file and are still
 * evaluated only when first asked for. Anything else (Redis, the token counter) is not in the
 * bundle and throws saying so.
 */
const BUNDLED: Readonly<Record<string, () => unknown>> = {
  'ajv': () => require('ajv'),
  'ajv/dist/2019.js': () => require('ajv/dist/2019.js'),
  'ajv/dist/2020.js': () => require('ajv/dist/2020.js'),
  'ajv/dist/compile/codegen/index.js': () => require('ajv/dist/compile/codegen/index.js'),
  'ajv/dist/compile/util.js': () => require('ajv/dist/compile/util.js'),
  'ajv-formats': () => require('ajv-formats'),
  'json-schema-library': () => require('json-schema-library'),
  'json-schema-library/formats': () => require('json-schema-library/formats'),
  'json-schema-library/remotes': () => require('json-schema-library/remotes'),
  're2js': () => require('re2js'),
};

export function createRequire(_base: string | URL | undefined): (specifier: string) => unknown {
  return (specifier) => {
    const load = BUNDLED[specifier];
    if (load === undefined) throw new Error(`${specifier} is not in the Worker bundle (examples/deploy/bundled-require.ts lists what is)`);
    return load();
  };
}
