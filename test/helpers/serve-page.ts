import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromiumAvailable, launchBrowser } from './browser.js';
import { startServeRig, type ServeRig, type ServeRigOptions } from './serve-rig.js';

export type { ServeRig };

export interface ServePageOptions {
  files?: Record<string, string>;
  viewport?: { width: number; height: number };
  approvalTimeoutMs?: number;
  /** Open a new session on the page (default); false leaves the page at its start. */
  newSession?: boolean;
  /** Another provider for the server's sessions (a loopback protocol server in `env`). */
  provider?: ServeRigOptions['provider'];
  env?: ServeRigOptions['env'];
}

export interface ServePage {
  r: ServeRig;
  page: Page;
  context: BrowserContext;
  /** Closes the page and the server; fails the test if the page threw. */
  close(): Promise<void>;
}

/**
 * `cairn serve` (in-process, offline model, a temp workspace) in a real headless Chromium. One
 * browser per test file, launched before its tests and closed after them. `run` is false where
 * there is no Chromium (CI installs it, so there the tests never skip).
 */
export function servePages() {
  const run = chromiumAvailable() || process.env['CI'] !== undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (run) browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function openServePage(opts: ServePageOptions = {}): Promise<ServePage> {
    if (!browser) throw new Error('openServePage: no browser (is Chromium installed?)');
    const r = await startServeRig({
      files: opts.files ?? {},
      ...(opts.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: opts.approvalTimeoutMs } : {}),
      ...(opts.provider ? { provider: opts.provider } : {}),
      ...(opts.env ? { env: opts.env } : {}),
    });
    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 }, colorScheme: 'dark' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${r.base}/`);
    if (opts.newSession ?? true) {
      await page.click('#new-session');
      await page.waitForSelector('#prompt:not([disabled])');
    }
    return {
      r,
      page,
      context,
      async close() {
        expect(errors).toEqual([]);
        await context.close();
        await r.close();
      },
    };
  }

  /** The browser itself, for a test that opens its page its own way. */
  const currentBrowser = (): Browser => {
    if (!browser) throw new Error('no browser (is Chromium installed?)');
    return browser;
  };

  return { run, openServePage, browser: currentBrowser };
}

/** Types a prompt and sends it with Enter. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  await page.fill('#prompt', text);
  await page.keyboard.press('Enter');
}
