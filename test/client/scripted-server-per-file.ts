/**
 * The setup the client wire tests share: one scripted server (scripted-http-server.ts) for the
 * whole test file, started in `before`, its recorded requests cleared before each test, closed in
 * `after` together with every client the file made through `client()`.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { connect } from '../../src/client/index.js';
import type { ClientOptions, HttpTarget, McpClient } from '../../src/client/index.js';
import { startScriptedServer } from './scripted-http-server.js';
import type { Script, ScriptedServer } from './scripted-http-server.js';

/** The file's scripted server, and clients on it that the file does not have to close. */
export interface ScriptedServerForFile {
  /** Valid from `before` on: its `url`, its `requests` (this test's), its `script` (set per test). */
  server: ScriptedServer;
  /** A client on the server (warnings dropped unless `options` says otherwise), closed after the file. */
  client(options?: ClientOptions, target?: Omit<HttpTarget, 'url'>): McpClient;
  /** Closes a client the test connected itself after the file, with the others. */
  closeAfterFile(client: McpClient): McpClient;
}

/** Registers the file's hooks; call it once at the top level of a test file. */
export function useScriptedServerForFile(): ScriptedServerForFile {
  let started: ScriptedServer | undefined;
  const clients: McpClient[] = [];
  const running = (): ScriptedServer => started ?? assert.fail('the scripted server runs from before() on; use it inside a test');
  const server: ScriptedServer = {
    get url() {
      return running().url;
    },
    get requests() {
      return running().requests;
    },
    get script() {
      return running().script;
    },
    set script(script: Script) {
      running().script = script;
    },
    close: () => running().close(),
  };
  before(async () => {
    started = await startScriptedServer(() => {});
  });
  beforeEach(() => {
    running().requests.length = 0;
  });
  after(async () => {
    for (const c of clients) await c.close();
    await started?.close();
  });
  return {
    server,
    client(options: ClientOptions = {}, target: Omit<HttpTarget, 'url'> = {}): McpClient {
      const c = connect({ ...target, url: server.url }, { onWarning: () => {}, ...options });
      clients.push(c);
      return c;
    },
    closeAfterFile(c: McpClient): McpClient {
      clients.push(c);
      return c;
    },
  };
}
