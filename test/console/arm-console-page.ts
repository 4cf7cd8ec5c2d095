/**
 * What the two arm console browser tests (the test feed, test/console/arm-console.browser.test.ts,
 * and the real robot, packages/robot-arm/test/console/robot-console.browser.test.ts) do to the same
 * console page: read the drawn TCP, approve the next held motion, wait for the arm status, reset a
 * latched e-stop through its confirmation, and read the console's HTTP API with the page's token.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** The TCP's x in the top view (it changes when the arm moves). */
export async function tcpOf(page: Page): Promise<string> {
  return (await page.getAttribute('[data-testid=tcp-top]', 'cx')) ?? '';
}

/** The text blocks of a tool result, joined (for messages and assertions on refusals). */
export function resultText(result: { content?: unknown }): string {
  return ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');
}

/**
 * Waits for the approval the console shows for a held call, and approves it. Given the pending call,
 * a call that ends before its approval is shown fails the test with the call's own answer (a refusal
 * says why), not with a selector timeout 30 s later.
 */
export async function approveShown(page: Page, call?: Promise<unknown>): Promise<void> {
  const shown = page.waitForSelector('[data-testid=approve]');
  if (call === undefined) {
    await shown;
  } else {
    const ended = call.then(
      (result) => { throw new Error(`the call ended before its approval was shown: ${JSON.stringify(result)}`); },
      (error: unknown) => { throw new Error(`the call failed before its approval was shown: ${error instanceof Error ? error.message : String(error)}`); },
    );
    await Promise.race([shown, ended]);
    ended.catch(() => {});
  }
  await page.click('[data-testid=approve]');
}

/** Waits until the arm status says every flag given (`data-moving`, `data-estop`) has the value given. */
export async function waitForArm(page: Page, flags: { moving?: boolean; estop?: boolean }): Promise<void> {
  const wanted = Object.entries(flags).map(([flag, value]) => [`data-${flag}`, String(value)] as const);
  await page.waitForFunction((pairs) => pairs.every(([name, value]) => document.querySelector('[data-testid=arm-status]')?.getAttribute(name) === value), wanted);
}

/** Resets a latched e-stop: dismissing the confirmation changes nothing, accepting it clears the latch. */
export async function resetEstopThroughConfirmation(page: Page): Promise<void> {
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.click('[data-testid=estop-reset]');
  assert.equal(await page.getAttribute('[data-testid=arm-status]', 'data-estop'), 'true', 'a dismissed confirmation leaves the e-stop latched');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.click('[data-testid=estop-reset]');
  await waitForArm(page, { estop: false });
}

/** GETs a console API path with the token of `consoleUrl` (its query), parsed as JSON. */
export async function getConsoleApi<T>(consoleUrl: string, path: string): Promise<T> {
  const base = new URL(consoleUrl);
  const response = await fetch(new URL(`${path}${base.search}`, base));
  assert.equal(response.status, 200, `GET ${path}`);
  return (await response.json()) as T;
}

/** POSTs JSON to a console API path, with `token` as x-console-token when given (none: unauthenticated). */
export function postConsoleApi(consoleUrl: string, path: string, body: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token !== undefined ? { 'x-console-token': token } : {}) };
  return fetch(new URL(path, consoleUrl), { method: 'POST', headers, body: JSON.stringify(body) });
}

/** The arm as the console API reports it: after hold-to-run fired, stopped and latched. */
export async function armMovingAndLatched(consoleUrl: string): Promise<[moving: boolean, latched: boolean]> {
  const arm = await getConsoleApi<{ state: { moving: boolean; estop: { latched: boolean } } }>(consoleUrl, '/console/api/arm');
  return [arm.state.moving, arm.state.estop.latched];
}
