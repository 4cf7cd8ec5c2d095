/**
 * Real headless Debian Chromium for console tests, through playwright-core. The flags keep
 * Chromium off the network (this machine and CI have none; without them it waits on it). A test
 * file calls `launchChromium()`; when /usr/bin/chromium is absent it gets undefined and skips with
 * the printed reason `CHROMIUM_MISSING`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_MISSING = `${CHROMIUM_PATH} is not installed (apt-get install -y chromium); console browser tests skipped`;

/** A browser and its profile directory; `close()` ends the browser and removes the profile. */
export interface LaunchedChromium {
  /** A persistent context on a fresh profile (playwright's way to pass --user-data-dir). */
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Launches Chromium, or undefined (after printing why) when it is not installed. */
export async function launchChromium(): Promise<LaunchedChromium | undefined> {
  if (!existsSync(CHROMIUM_PATH)) {
    process.stdout.write(`# ${CHROMIUM_MISSING}\n`);
    return undefined;
  }
  const profile = mkdtempSync(join(tmpdir(), 'toolwright-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects page errors and console errors, so a test can assert there were none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return errors;
}
