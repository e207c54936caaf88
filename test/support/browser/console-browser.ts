import type { Type } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startRuntime, type RuntimeContext } from '../runs/runtime-context';
import type { TestUser } from '../test-app';

/** Debian's Chromium, without the network calls it would make on its own (no internet here). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ConsoleApp extends RuntimeContext {
  baseUrl: string;
  browser: Browser;
}

/**
 * The whole service (API and worker, the fake model) on a real port, and a browser to drive its console.
 * `extraModules`: test modules for the app (a local forge's transport, say).
 */
export async function startConsoleApp(
  overrides: Record<string, string> = {},
  extraModules: Type[] = [],
): Promise<ConsoleApp> {
  const runtime = await startRuntime({ RUN_EVENT_FLUSH_MS: '20', ...overrides }, extraModules);
  await runtime.ctx.app.listen(0, '127.0.0.1');
  const { port } = runtime.ctx.app.getHttpServer().address() as AddressInfo;
  const browser = await launchBrowser();
  return {
    ...runtime,
    baseUrl: `http://127.0.0.1:${port}`,
    browser,
    close: async () => {
      await browser.close();
      await runtime.close();
    },
  };
}

/** A fresh browser context (its own storage) in a theme and at a width. */
export async function browserContext(
  app: ConsoleApp,
  options: { width?: number; dark?: boolean; locale?: string } = {},
): Promise<BrowserContext> {
  const context = await app.browser.newContext({
    baseURL: app.baseUrl,
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    locale: options.locale ?? 'en-US',
    acceptDownloads: true,
    // No transitions: a screenshot or a contrast check never catches a colour halfway.
    reducedMotion: 'reduce',
  });
  // Well under Jest's test timeout, so a wait that fails names what it waited for.
  context.setDefaultTimeout(10_000);
  return context;
}

export async function signIn(page: Page, user: TestUser, path = '/'): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in: the header with its Sign out button, then the page asked for.
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.locator('#main > *').first().waitFor();
}

/**
 * Every error the page reports: uncaught exceptions and console errors (CSP refusals included). An API
 * answer the page handles itself (a 409 it explains, a 401 that sends to sign-in) is not one: Chromium
 * logs every non-2xx fetch, so those lines are left out; a missing bundle or image is still reported.
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const handledApiAnswer =
      message.text().startsWith('Failed to load resource') &&
      /^https?:\/\/[^/]+\/api\//.test(message.location().url);

    if (!handledApiAnswer) errors.push(`console: ${message.text()}`);
  });
  return errors;
}

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is. The script is evaluated through
 * the DevTools protocol, so the console's CSP (no inline scripts) stays on.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  // A string, evaluated in the page (this file is compiled without the DOM's types).
  type Violation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };
  const violations = await page.evaluate<Violation[]>(
    'axe.run(document).then((result) => result.violations)',
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => JSON.stringify(node.target)),
    }));
}

/** Screenshots are test artifacts, kept out of git: `test-artifacts/console/<name>.png`. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-artifacts', 'console');

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** A screenshot of the page as it is, and no serious or critical axe violation on it. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect({ name, violations: await seriousA11yViolations(page) }).toEqual({ name, violations: [] });
}
