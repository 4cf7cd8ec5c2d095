/**
 * The robot's /mcp bearer token as every test reads it: from the token file that `npm start`
 * (packages/robot-arm/main.ts) writes in the state folder, the path main.ts itself uses. A test
 * starts the server first (the file exists once the banner is printed), then reads the token.
 * scripts/run-tests.mjs gives the tests a state folder of their own; a test that starts the server
 * with another TOOLWRIGHT_STATE_DIR passes that environment.
 */
import { readFileSync } from 'node:fs';
import { robotTokenPath } from '../../packages/robot-arm/server/mcp-access.js';

/** The token in the robot's token file (throws, naming the file, when there is none yet). */
export function robotToken(env: NodeJS.ProcessEnv = process.env): string {
  const path = robotTokenPath(env);
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new Error(`no robot /mcp token at ${path} (start the robot server over HTTP first): ${(error as Error).message}`);
  }
}

/** `{ authorization: 'Bearer <token>' }`, to spread into a request's headers. */
export function robotAuthHeaders(env: NodeJS.ProcessEnv = process.env): { authorization: string } {
  return { authorization: `Bearer ${robotToken(env)}` };
}

/** `--header 'Authorization: Bearer <token>'` for `toolwright call | lint | preview` and the Inspector CLI. */
export function robotHeaderArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  return ['--header', `Authorization: Bearer ${robotToken(env)}`];
}
