// First load of a table link on a slow phone: Chromium with its network throttled to 150 ms round trips and
// 1.6 Mbps down / 750 kbps up, and its CPU slowed four times, opens a table link as a first visit (no cache, no
// cookie). The board with its pieces must show within 1.2 s (median of seven visits), and the visit must download
// less than 90 KB over HTTP. Prints each visit's figures. The server is the release build when PARLOR_RELEASE_BIN
// names it (as CI does): a debug build answers the page's requests tens of milliseconds later, unevenly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, SPEED_BIN, setup, person, createTable } from '../lib/harness.js';
import { newPage } from '../lib/browser.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const PHONE = { width: 390, height: 844 };
const VISITS = 7;

/** One first visit of `path`: ms from the start of navigation to a board with pieces, and the bytes moved. */
async function visit(env, path, lang) {
  const { context, page, errors } = await newPage(env.browser, { base: env.base, viewport: PHONE, locale: lang });
  try {
    // The moment the board first shows pieces drawn from the sprite, in the page's own clock.
    await page.addInitScript(() => {
      const seen = () => document.querySelector('svg.board .layer-pieces use') && document.getElementById('wK');
      new MutationObserver((_, observer) => {
        if (seen()) { window.__boardAt = performance.now(); observer.disconnect(); }
      }).observe(document, { childList: true, subtree: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: (1.6e6 / 8), uploadThroughput: (750e3 / 8),
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let http = 0;
    let requests = 0;
    let socket = 0;
    cdp.on('Network.loadingFinished', (e) => { http += e.encodedDataLength; requests += 1; });
    cdp.on('Network.webSocketFrameReceived', (e) => { socket += e.response.payloadData.length; });
    await page.goto(path);
    await page.waitForFunction(() => window.__boardAt !== undefined, null, { timeout: 30000, polling: 50 });
    const ms = await page.evaluate(() => window.__boardAt);
    assert.deepEqual(errors, []);
    return { ms, http, requests, socket };
  } finally {
    await context.close();
  }
}

test('a table link shows its board within 1.2 s on a slow phone, in under 90 KB', { skip, timeout: 240000 }, async () => {
  const env = await setup([], { bin: SPEED_BIN });
  console.log(`server: ${SPEED_BIN}`);
  try {
    const host = await person(env, 'Host');
    const id = await createTable(host.page, { game: 'chess', seats: ['me', 'open'] });
    for (const lang of ['en-GB', 'bn-IN']) {
      // The server compresses each file once: one visit first warms that up, as on a running site.
      await visit(env, `/table/${id}`, lang).catch(() => null);
      const runs = [];
      for (let i = 0; i < VISITS; i += 1) runs.push(await visit(env, `/table/${id}`, lang));
      for (const r of runs) {
        console.log(`${lang}: board at ${r.ms.toFixed(0)} ms, ${(r.http / 1024).toFixed(1)} KB in ${r.requests} HTTP responses, ${(r.socket / 1024).toFixed(1)} KB over the socket`);
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const ms = median(runs.map((r) => r.ms));
      const bytes = median(runs.map((r) => r.http));
      console.log(`${lang}: median board at ${ms.toFixed(0)} ms, median ${(bytes / 1024).toFixed(1)} KB over HTTP`);
      assert.ok(bytes < 90 * 1024, `${lang}: ${bytes} bytes over HTTP`);
      assert.ok(ms < 1200, `${lang}: the board showed after ${ms.toFixed(0)} ms`);
    }
  } finally {
    await env.close();
  }
});
