/**
 * One browser test session, the setup every console browser test shares: headless Debian Chromium
 * (chromium.ts), the server the page talks to, one page whose errors are collected, and one
 * `close()` for all of it. `openConsoleSession` is the common case: a child process printing the
 * console banner (serve-child.ts), the project's MCP client on its MCP URL, the page opened on the
 * console and ready. Both give undefined when Chromium is missing (the reason is printed), so a
 * test skips with `t.skip('chromium missing')`.
 */
import type { Page } from 'playwright-core';
import { connect } from '../../src/client/index.js';
import type { McpClient } from '../../src/client/index.js';
import { collectPageErrors, launchChromium } from './chromium.js';
import type { LaunchedChromium } from './chromium.js';
import { startWithConsole } from './serve-child.js';
import type { ServedChild } from './serve-child.js';

/** Chromium, the server a test started for it, and a fresh page. */
export interface BrowserSession<Server> {
  browser: LaunchedChromium;
  server: Server;
  page: Page;
  /** Page errors and console errors since the page was opened (see `collectPageErrors`). */
  errors: string[];
  /** Closes the browser (and removes its profile), then stops the server. */
  close(): Promise<void>;
}

/**
 * Launches Chromium, starts the server with `start` and opens a page. When a step fails, what was
 * started is closed before the error is rethrown, so a failed `before` leaves no browser or child.
 */
export async function openBrowserSession<Server>(start: () => Promise<Server>, stop: (server: Server) => Promise<void>): Promise<BrowserSession<Server> | undefined> {
  const browser = await launchChromium();
  if (browser === undefined) return undefined;
  let server: Server | undefined;
  let started = false;
  const close = async (): Promise<void> => {
    try {
      await browser.close();
    } finally {
      if (started) await stop(server as Server);
    }
  };
  try {
    server = await start();
    started = true;
    const page = await browser.newPage();
    return { browser, server, page, errors: collectPageErrors(page), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A console session: the child serving MCP and the console, a client on it, the page on the console. */
export interface ConsoleSession extends Omit<BrowserSession<unknown>, 'server'> {
  /** The child (its `mcpUrl`, `consoleUrl` with the token, `stderr()`). */
  served: ServedChild;
  /** The project's MCP client on `served.mcpUrl` (60 s timeout: a held call waits for the operator). */
  client: McpClient;
}

/** What a console test may add to the session's start. */
export interface ConsoleSessionOptions {
  /** Extra environment for the child. */
  env?: Record<string, string>;
  /** Runs on the new page before it loads the console (to watch its responses or time its load). */
  beforeLoad?(page: Page): void;
  /** Headers of the client's MCP requests, read once the child has started (e.g. the robot's bearer token from its file). */
  mcpHeaders?(): Record<string, string>;
}

/**
 * Starts `node --import tsx <script> ...args` as a child (see `startWithConsole`), connects the
 * client, opens the console page and waits until it says it is ready (`body[data-ready="true"]`).
 */
export async function openConsoleSession(script: string, args: readonly string[], options: ConsoleSessionOptions = {}): Promise<ConsoleSession | undefined> {
  const session = await openBrowserSession(
    async () => {
      const served = await startWithConsole(script, args, options.env);
      const headers = options.mcpHeaders?.();
      return { served, client: connect(headers === undefined ? served.mcpUrl : { url: served.mcpUrl, headers }, { timeoutMs: 60_000 }) };
    },
    async ({ served, client }) => {
      try {
        await client.close();
      } finally {
        await served.stop();
      }
    },
  );
  if (session === undefined) return undefined;
  try {
    options.beforeLoad?.(session.page);
    await session.page.goto(session.server.served.consoleUrl);
    await session.page.waitForSelector('body[data-ready="true"]');
  } catch (error) {
    await session.close();
    throw error;
  }
  const { server, ...rest } = session;
  return { ...rest, ...server };
}
