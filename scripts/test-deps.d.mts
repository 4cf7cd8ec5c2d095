// Types of scripts/test-deps.mjs (plain JavaScript, so that package.json scripts and
// scripts/run-tests.mjs can run it before tsx is loaded), for the TypeScript that imports it.
// `root` is the repository to act on: this one unless a test points at a temporary copy.

/** The repository root. */
export declare const REPO_ROOT: string;
/** The workspace whose packages are linked into the folders that import them. */
export declare const THIRD_PARTY: 'third-party';
/** The folder of test-deps/<name>. */
export declare function testDepsDir(name: string, root?: string): string;
/** The folders (relative to the root) whose node_modules get test-deps/third-party's packages. */
export declare function linkHomes(root?: string): string[];
/** Links each dependency of test-deps/third-party into <home>/node_modules; removes links it no longer has. */
export declare function linkThirdParty(root?: string): void;
/** Makes sure test-deps/<name> is installed (and, for third-party, linked); returns its folder. */
export declare function ensureTestDeps(name: string, options?: { log?: (line: string) => void; root?: string }): string;
