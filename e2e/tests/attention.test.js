// A player in another tab sees when they are wanted: the tab's title (and icon) says "Your move" on their move and
// "Challenge!" while a challenge waits for them (described in full, in the page's digits); each side of an
// accepted challenge is told the right thing. A player who turns notifications on is told by the system when the
// tab is hidden; a phone vibrates when the move comes round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, model, waitPath, waitSeated, waitTurn, uci, playByClicks, waitPly } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const wanted = (page, why) => page.waitForFunction((w) => document.documentElement.dataset.attention === w, why);

test('the tab title says whose move it is and that a challenge waits; each side hears its own words', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const a = await person(env, 'Hari');
    const b = await person(env, 'Indira', { lang: 'bn' });
    assert.equal(await b.page.title(), 'পার্লার');
    await a.page.goto('/');
    await a.page.locator('#players li', { hasText: 'Indira' }).locator('[data-action="challenge"]').click();
    await a.page.click('[data-action="send-challenge"]');
    await wanted(b.page, 'challenge');
    assert.equal(await b.page.title(), '● চ্যালেঞ্জ! · পার্লার');
    // The challenge gives its whole clock (15 min each and 60 s a move) in Bengali digits.
    const box = await b.page.locator('#challenges').innerText();
    assert.match(box, /১৫/, box);
    assert.match(box, /৬০/, box);
    assert.doesNotMatch(box, /[0-9]/, box);
    assert.equal(await a.page.title(), 'Parlor', 'the sender is not called');
    assert.notEqual(await b.page.getAttribute('link[rel="icon"]', 'href'), 'data:,');

    await b.page.click('[data-action="challenge-accept"]');
    // Names are isolated (U+2068 ... U+2069) in every sentence.
    await a.page.locator('.toast', { hasText: /^\u2068?Indira\u2069? accepted/ }).waitFor();
    await b.page.locator('.toast', { hasText: /^আপনি \u2068?Hari\u2069?-এর চ্যালেঞ্জ নিয়েছেন/ }).waitFor();
    await waitPath(a.page, '^/table/');
    await waitPath(b.page, '^/table/');
    await waitSeated(a.page);
    await waitSeated(b.page);

    const first = (await model(a.page)).you === 0 ? a : b;
    const second = first === a ? b : a;
    await waitTurn(first.page);
    await wanted(first.page, 'turn');
    await wanted(second.page, '');
    assert.match(await first.page.title(), /^● (Your move|আপনার চাল) · /);
    await uci(first.page, 'e2e4');
    await wanted(second.page, 'turn');
    await wanted(first.page, '');
    assert.equal(await first.page.title(), first === a ? 'Parlor' : 'পার্লার');
  } finally {
    await env.close();
  }
});

test('notifications: asked for only once the player turns them on, then a hidden tab is told; a phone vibrates', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, baseURL: env.base, locale: 'en-GB' });
    await context.grantPermissions(['notifications'], { origin: env.base });
    const page = await context.newPage();
    // Record what the page asks of the browser; `document.hidden` follows window.__hidden (another tab in front).
    await page.addInitScript(() => {
      window.__told = [];
      window.__buzz = [];
      window.__asked = 0;
      window.__hidden = false;
      const Real = window.Notification;
      const Spy = function Notification(title, opts) { window.__told.push([title, opts && opts.body]); return new Real(title, opts); };
      Spy.requestPermission = (...a) => { window.__asked += 1; return Real.requestPermission(...a); };
      Object.defineProperty(Spy, 'permission', { get: () => Real.permission });
      window.Notification = Spy;
      navigator.vibrate = (p) => { window.__buzz.push(p); return true; };
      Object.defineProperty(document, 'hidden', { get: () => window.__hidden, configurable: true });
    });
    await page.goto('/');
    await page.waitForSelector('html[data-started="1"]');
    await page.waitForSelector('#notify[aria-pressed="false"]');
    await page.click('[data-quick="chess"]');
    await waitTurn(page);
    await page.waitForFunction(() => window.__buzz.length === 1);
    assert.equal(await page.evaluate(() => window.__asked), 0, 'no permission prompt before the player asks');
    assert.equal(await page.evaluate(() => window.__told.length), 0, 'nothing shown while notifications are off');

    await page.click('#notify');
    await page.waitForSelector('#notify[aria-pressed="true"]');
    assert.equal(await page.evaluate(() => window.__asked), 1);
    assert.equal(await page.evaluate(() => localStorage.getItem('parlor.notify')), '1');

    // The player looks at another tab; the computer answers; the notification says it is their move.
    await page.evaluate(() => { window.__hidden = true; });
    await playByClicks(page, 'e2e4');
    await waitPly(page, 2);
    await page.waitForFunction(() => window.__told.length === 1);
    const [title, body] = (await page.evaluate(() => window.__told))[0];
    assert.match(title, /Your move/);
    assert.match(body, /waiting for your move/);
    assert.equal(await page.evaluate(() => window.__buzz.length), 2, 'and the phone vibrates each time the move comes round');

    // Off again: nothing more is shown.
    await page.click('#notify');
    await page.waitForSelector('#notify[aria-pressed="false"]');
    await playByClicks(page, 'd2d4');
    await waitPly(page, 4);
    await page.waitForFunction(() => window.__buzz.length === 3);
    assert.equal(await page.evaluate(() => window.__told.length), 1);
  } finally {
    await env.close();
  }
});
