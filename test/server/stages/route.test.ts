/** The `route` stage: every method but tools/call is answered by its route. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { route } from '../../../src/server/stages/route.js';
import type { MethodRoute } from '../../../src/server/stages/pipeline-env.js';
import type { RequestState } from '../../../src/server/stages/stage.js';
import { assertPassed, assertRefused, stageEnv, versioned } from '../../support/stage-fixture.js';

describe('route stage', () => {
  it('lets tools/call go on to the call stages without asking a route', () => {
    const env = stageEnv({ routes: new Map([['tools/call', () => { throw new Error('a route ran'); }]]) });
    const s = versioned('tools/call', { name: 'echo' });
    assertPassed(route.run(s, env), s);
  });

  it("answers another method with its route's stop, handing it the request state", async () => {
    const seen: RequestState[] = [];
    const ping: MethodRoute = (state) => { seen.push(state); return { kind: 'result', outcome: 'respond', result: { pong: true } }; };
    const s = versioned('ping');
    assert.deepEqual(await route.run(s, stageEnv({ routes: new Map([['ping', ping]]) })), { kind: 'result', outcome: 'respond', result: { pong: true } });
    assert.deepEqual(seen, [s]);
  });

  it('refuses a method no route serves, echoing its name', () => {
    assertRefused(route.run(versioned('tools/explode'), stageEnv()), 'methodNotFound', 'Method not found: tools/explode');
  });
});
