// Debian's Chromium driven by playwright-core (never `npx playwright install`).
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** A browser with a fresh temporary profile; each newContext() is a fresh person (own cookies and storage). */
export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** A page that records console errors and page errors into `errors`. */
export async function newPage(browser, { viewport = { width: 1440, height: 900 }, locale = 'en-GB', base } = {}) {
  const context = await browser.newContext({ viewport, locale, baseURL: base });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}
