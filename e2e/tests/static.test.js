// Static smoke test, runnable without the Rust server: the page loads from our own origin only, starts without
// console errors, draws the lobby and a table of each game (from canned protocol answers), and writes
// screenshots at phone and desktop sizes under e2e/screenshots/ for a human to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { startMock } from '../lib/mock-server.js';
import { launch, newPage } from '../lib/browser.js';

const SHOTS = new URL('../screenshots/', import.meta.url).pathname;
const SIZES = [['narrow', { width: 360, height: 740 }], ['phone', { width: 390, height: 844 }], ['desktop', { width: 1440, height: 900 }]];
let mock;
let browser;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mock = await startMock();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await mock?.close();
});

async function open(path, viewport, lang = 'en-GB') {
  const p = await newPage(browser, { viewport, locale: lang, base: mock.url });
  const requests = [];
  p.page.on('request', (r) => requests.push(r.url()));
  await p.page.goto(path);
  await p.page.waitForSelector('html[data-started="1"]', { timeout: 10000 });
  return { ...p, requests };
}

for (const [name, viewport] of SIZES) {
  test(`lobby at ${name} size: no console errors, own origin only, no horizontal scroll`, async () => {
    const { page, errors, requests, context } = await open('/', viewport);
    await page.waitForSelector('#tables .lobby-table');
    await page.waitForSelector('#players li[data-player]');
    await page.screenshot({ path: `${SHOTS}static-lobby-${name}.png`, fullPage: true });
    assert.deepEqual(errors, []);
    for (const u of requests) assert.ok(u.startsWith(mock.url) || u.startsWith('ws://127.0.0.1') || u.startsWith('data:'), `foreign request ${u}`);
    const text = await page.locator('#players').innerText();
    assert.ok(text.includes('<b>not bold</b>'), 'a name is shown as text, never as HTML');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
    await context.close();
  });

  for (const [game, id] of [['chess', 'chess1'], ['draughts', 'draughts1'], ['chess4', 'four1']]) {
    test(`${game} table at ${name} size`, async () => {
      const { page, errors, context } = await open('/table/' + id, viewport);
      await page.waitForSelector('svg.board rect[data-square]');
      await page.waitForSelector('svg.board .piece');
      const squares = await page.locator('svg.board rect[data-square]').count();
      assert.equal(squares, { chess: 64, draughts: 32, chess4: 160 }[game]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
      assert.deepEqual(errors, []);
      await page.screenshot({ path: `${SHOTS}static-table-${game}-${name}.png`, fullPage: true });
      await context.close();
    });
  }
}

test('click-click shows destinations and reports the move', async () => {
  const { page, context } = await open('/table/chess1', { width: 1000, height: 800 });
  await page.waitForSelector('svg.board .piece');
  const sent = [];
  page.on('websocket', () => {});
  await page.evaluate(() => {
    const orig = WebSocket.prototype.send;
    window.__sent = [];
    WebSocket.prototype.send = function (d) { window.__sent.push(d); return orig.call(this, d); };
  });
  await page.click('svg.board rect[data-square="f1"]');
  assert.equal(await page.locator('svg.board [data-dest]').count(), 2);
  await page.click('svg.board rect[data-square="c4"]');
  const msgs = (await page.evaluate(() => window.__sent)).map((s) => JSON.parse(s));
  const move = msgs.find((m) => m.t === 'move');
  assert.equal(move.wire, 'f1c4');
  assert.equal(move.ply, 4);
  assert.equal(move.table, 'chess1');
  void sent;
  await context.close();
});

async function recordSent(page) {
  await page.evaluate(() => {
    const orig = WebSocket.prototype.send;
    window.__sent = [];
    WebSocket.prototype.send = function (d) { window.__sent.push(JSON.parse(d)); return orig.call(this, d); };
  });
  return async () => (await page.evaluate(() => window.__sent)).filter((m) => m.t === 'move');
}

test('drag and drop, typed moves, the promotion chooser', async () => {
  const { page, context } = await open('/table/chess1', { width: 1000, height: 800 });
  await page.waitForSelector('svg.board .piece');
  const moves = await recordSent(page);
  const box = async (name) => page.locator(`svg.board rect[data-square="${name}"]`).boundingBox();
  const a = await box('d2');
  const b = await box('d4');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up();
  assert.equal((await moves()).at(-1).wire, 'd2d4');
  await page.goto('/table/chess1');
  await page.waitForSelector('svg.board .piece');
  const typed = await recordSent(page);
  await page.fill('#move-input', 'Bb5+');
  await page.press('#move-input', 'Enter');
  assert.equal((await typed()).at(-1).wire, 'f1b5');
  await page.goto('/table/promo1');
  await page.waitForSelector('svg.board .piece');
  const promo = await recordSent(page);
  await page.click('svg.board rect[data-square="b7"]');
  await page.click('svg.board rect[data-square="b8"]');
  await page.waitForSelector('.chooser:not([hidden]) [data-promo="n"]');
  assert.equal(await page.locator('.chooser .choice').count(), 4);
  await page.screenshot({ path: `${SHOTS}static-promotion.png` });
  await page.click('.chooser [data-promo="n"]');
  assert.equal((await promo()).at(-1).wire, 'b7b8n');
  await context.close();
});

test('draughts: two captures with the same from and to ask which path', async () => {
  const { page, context } = await open('/table/draughts2', { width: 1000, height: 800 });
  await page.waitForSelector('svg.board .piece');
  const moves = await recordSent(page);
  await page.click('svg.board rect[data-square="b6"]');
  await page.click('svg.board rect[data-square="f2"]');
  await page.waitForSelector('.chooser:not([hidden]) [data-wire="9x20x27"]');
  await page.screenshot({ path: `${SHOTS}static-draughts-path.png` });
  await page.click('.chooser [data-wire="9x20x27"]');
  assert.equal((await moves()).at(-1).wire, '9x20x27');
  await context.close();
});

test('history lists a game; the replay steps through it', async () => {
  const { page, errors, context } = await open('/history', { width: 1200, height: 900 });
  await page.waitForSelector('#history [data-game="demo"]');
  await page.click('#history [data-action="replay"]');
  await page.waitForFunction(() => location.pathname === '/game/demo');
  await page.waitForSelector('#ply');
  assert.match(await page.locator('#ply').innerText(), /7 of 7/);
  // After O-O the king is on g1 and the rook on f1.
  assert.match(await page.locator('rect[data-square="g1"]').getAttribute('aria-label'), /king/);
  assert.match(await page.locator('rect[data-square="f1"]').getAttribute('aria-label'), /rook/);
  await page.click('[data-action="first"]');
  assert.match(await page.locator('#ply').innerText(), /0 of 7/);
  await page.click('[data-action="next"]');
  assert.match(await page.locator('rect[data-square="e4"]').getAttribute('aria-label'), /white pawn/);
  await page.keyboard.press('End');
  assert.match(await page.locator('#ply').innerText(), /7 of 7/);
  // Share image: the picture of the position shown, with its last move (the king's move of O-O).
  const shot = new URL(await page.locator('[data-action="share-image"]').getAttribute('href'), 'http://x');
  assert.equal(shot.pathname, '/image/chess.png');
  assert.equal(shot.searchParams.get('fen'), 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4');
  assert.equal(shot.searchParams.get('lastmove'), 'e1g1');
  await page.screenshot({ path: `${SHOTS}static-replay.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a finished game: result, check mark, chat as text, player menu, rematch and download', async () => {
  const { page, errors, context } = await open('/table/over1', { width: 1200, height: 900 });
  await page.waitForSelector('#result[data-reason="checkmate"]');
  await page.locator('#chat-lines li', { hasText: 'good game <i>!</i>' }).waitFor();
  assert.equal(await page.locator('#chat-lines i').count(), 0);
  assert.equal(await page.locator('svg.board .mark-check').count(), 1);
  assert.match(await page.locator('#spectators').innerText(), /5/);
  assert.equal(await page.locator('[data-action="download"]').getAttribute('href'), '/api/game/g-over1/export');
  assert.match(await page.locator('[data-action="share-image"]').getAttribute('href'), /^\/image\/chess\.png\?fen=/);
  assert.match(await page.locator('[data-action="rematch"]').innerText(), /1\/1|Rematch/);
  await page.locator('#chat-lines button.pname', { hasText: 'Bo' }).click();
  await page.locator('#player-menu [data-action="mute"]').waitFor();
  await page.screenshot({ path: `${SHOTS}static-table-over-desktop.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

for (const lang of ['bn', 'mr']) {
  test(`${lang} at 360 px: lobby and table without horizontal scrolling`, async () => {
    for (const path of ['/', '/table/four1', '/table/chess1', '/rules/draughts']) {
      const { page, context } = await open(path, { width: 360, height: 740 });
      await page.selectOption('#lang', lang);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      await page.waitForTimeout(200);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (path === '/') await page.screenshot({ path: `${SHOTS}static-lobby-${lang}-360.png`, fullPage: true });
      assert.ok(overflow <= 0, `${path}: horizontal overflow ${overflow}px`);
      await context.close();
    }
  });
}

test('table not found and language switch to বাংলা and मराठी', async () => {
  const { page, context } = await open('/table/missing', { width: 1000, height: 800 });
  await page.waitForSelector('#not-found');
  await page.selectOption('#lang', 'bn');
  await page.goto('/rules/chess');
  await page.waitForSelector('#rules h1');
  assert.equal(await page.locator('#rules h1').innerText(), 'দাবা');
  await page.selectOption('#lang', 'mr');
  await page.waitForFunction(() => document.querySelector('#rules h1').textContent === 'बुद्धिबळ');
  await page.screenshot({ path: `${SHOTS}static-rules-mr.png`, fullPage: false });
  await context.close();
});

test('connection trouble, then back; cookies refused; client outdated with a reload button', async () => {
  const { page, errors, context } = await open('/table/drop1', { width: 1000, height: 800 });
  await page.locator('#status [data-status="trouble"]').waitFor();
  await page.waitForSelector('svg.board .piece');
  await page.waitForSelector('#status', { state: 'hidden' });
  await page.locator('.toast', { hasText: 'Connected again' }).waitFor();
  assert.ok(errors.every((e) => /WebSocket/.test(e)), errors.join());
  await context.close();
  const nc = await newPage(browser, { base: mock.url });
  await nc.page.goto('/?cookie=none');
  await nc.page.locator('#status [data-status="cookies"]').waitFor();
  assert.match(await nc.page.locator('#status').innerText(), /cookies/);
  await nc.context.close();
  const old = await newPage(browser, { base: mock.url });
  await old.page.goto('/?cookie=old');
  await old.page.locator('#status [data-action="reload"]').waitFor();
  await old.page.screenshot({ path: `${SHOTS}static-outdated.png` });
  await old.context.close();
});

test('the fallback message shows when the script does not load', async () => {
  const { page, context } = await newPage(browser, { base: mock.url });
  await page.route('**/js/app.js', (r) => r.abort());
  await page.goto('/');
  await page.waitForSelector('#fallback:not([hidden])', { timeout: 10000 });
  const text = await page.locator('#fallback').innerText();
  assert.ok(text.includes('could not start') && text.includes('পার্লার') && text.includes('पार्लर'));
  await context.close();
});
