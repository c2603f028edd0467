// Starts a real `parlor serve` on a free port with a fresh SQLite database, and gives tests people (browser
// contexts) who load the site. PARLOR_BIN may point to the binary; else target/debug/parlor of this repository.
// PARLOR_RELEASE_BIN names a release build for the tests that measure speed (`SPEED_BIN`), so they time the
// server players run rather than a debug build's slower answers.
// Without a binary the server tests are skipped (the static smoke test still runs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, newPage } from './browser.js';

const ROOT = new URL('../../', import.meta.url).pathname;
export const BIN = process.env.PARLOR_BIN || join(ROOT, 'target/debug/parlor');
// A binary without the `serve` subcommand (before the server landed) counts as none.
export const HAVE_SERVER = existsSync(BIN) && spawnSync(BIN, ['serve', '--help'], { stdio: 'ignore', timeout: 10000 }).status === 0;
export const SPEED_BIN = process.env.PARLOR_RELEASE_BIN || BIN;
export const SHOTS = join(ROOT, 'e2e/screenshots');

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Start `parlor serve` (the binary `bin`); `extra` flags (e.g. ['--grace-seconds', '3']). Resolves {base, stop}. */
export async function startServer(extra = [], bin = BIN) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'parlor-e2e-'));
  const db = join(dir, 'e2e.db');
  const proc = spawn(bin, ['serve', '--listen', `127.0.0.1:${port}`, '--database', `sqlite://${db}`, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
  });
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`parlor serve exited: ${log}`);
    try {
      const r = await fetch(base + '/healthz');
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) { proc.kill(); throw new Error(`parlor serve did not answer /healthz: ${log}`); }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    log: () => log,
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => { if (proc.exitCode !== null) r(); else proc.once('exit', r); setTimeout(r, 5000); });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Server and browser for one test file; `bin`: the server's binary. */
export async function setup(extra = [], { bin = BIN } = {}) {
  const server = await startServer(extra, bin);
  const browser = await launch();
  return {
    server, browser, base: server.base,
    async close() { await browser.close(); await server.stop(); },
  };
}

/** A person: a fresh browser context on the lobby, connected, with a name. */
export async function person(env, name, { viewport, lang } = {}) {
  const p = await newPage(env.browser, { base: env.base, viewport, locale: lang === 'bn' ? 'bn-IN' : lang === 'mr' ? 'mr-IN' : 'en-GB' });
  await p.page.addInitScript((l) => { if (l && !localStorage.getItem('parlor.lang')) localStorage.setItem('parlor.lang', l); }, lang || 'en');
  await p.page.goto('/');
  await p.page.waitForSelector('html[data-started="1"]');
  await p.page.waitForSelector('#presence');
  await p.page.waitForFunction(() => document.querySelector('#name') && document.querySelector('#name').value !== '');
  if (name) {
    await p.page.fill('#name', name);
    await p.page.click('[data-action="save-name"]');
    await p.page.waitForFunction((n) => document.querySelector('#name').value === n, name);
  }
  return { ...p, name };
}

/** The table model as the page knows it (read-only test view). */
export function model(page) {
  return page.evaluate(() => (window.__parlorTable ? JSON.parse(JSON.stringify(window.__parlorTable())) : null));
}

const FILES = 'abcdefghijklmn';
export const sq = ([f, r]) => FILES[f] + String(r + 1);

/** Wait until the table shows `ply` moves. */
export async function waitPly(page, ply, timeout = 20000) {
  await page.waitForFunction((n) => {
    const m = window.__parlorTable && window.__parlorTable();
    return m && m.game && m.game.moves.length >= n;
  }, ply, { timeout });
}

/** Wait for this person's turn. */
export async function waitTurn(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const m = window.__parlorTable && window.__parlorTable();
    return m && m.game && (m.game.outcome || (m.game.turn === m.you && m.game.legal.length > 0));
  }, null, { timeout });
}

/** Play a wire move by clicking its squares (and the promotion or path choice when asked). */
export async function playByClicks(page, wire) {
  const m = await model(page);
  const mv = m.game.legal.find((x) => x.wire === wire);
  if (!mv) throw new Error(`${wire} is not legal here: ${m.game.legal.map((x) => x.wire).join(' ')}`);
  const ply = m.game.moves.length;
  await page.click(`svg.board rect[data-square="${sq(mv.from)}"]`);
  await page.click(`svg.board rect[data-square="${sq(mv.to)}"]`);
  const options = m.game.legal.filter((x) => x.from.join() === mv.from.join() && x.to.join() === mv.to.join());
  if (options.length > 1) await page.click(`.chooser [data-wire="${wire}"]`);
  await waitPly(page, ply + 1);
}

/** Play a chess move given as from-to squares (UCI), waiting for it to be my turn first. */
export async function uci(page, wire) {
  await waitTurn(page);
  await playByClicks(page, wire);
}

/** Create a table from the lobby form. seats: array of 'me' | 'open' | 'cpu'. Returns the table id. */
export async function createTable(page, { game = 'chess', variant, time, private: priv = false, seats, moveLimit } = {}) {
  await page.goto('/');
  await page.waitForSelector('#create-form');
  await page.selectOption('#c-game', game);
  if (variant) await page.selectOption('#c-variant', variant);
  if (time) await page.selectOption('#c-time', time);
  if (priv) await page.check('#c-private');
  if (moveLimit) await page.fill('#c-move-limit', String(moveLimit));
  // A seat is 'me', 'open' or 'cpu', or 'cpu:LEVEL' for a computer at a level other than medium.
  for (const [i, seat] of (seats || []).entries()) {
    const [kind, level] = seat.split(':');
    await page.selectOption(`select[data-seat="${i}"]`, kind);
    if (level) await page.selectOption(`select[name="level${i}"]`, level);
  }
  await page.click('[data-action="create"]');
  await waitPath(page, '^/table/');
  await page.waitForFunction(() => window.__parlorTable && window.__parlorTable());
  return (await model(page)).id;
}

/** Wait until the page's path matches (the client routes with pushState, which fires no load event). */
export function waitPath(page, pattern, timeout = 30000) {
  return page.waitForFunction((p) => new RegExp(p).test(location.pathname), pattern, { timeout });
}

/** Wait until the table page has its state and a seat of ours in it (the path changes before the state comes). */
export function waitSeated(page, timeout = 30000) {
  return page.waitForFunction(() => { const m = window.__parlorTable && window.__parlorTable(); return m && m.you !== null && m.you !== undefined; }, null, { timeout });
}

/** Sit in the first free seat at a table page already open. */
export async function sitDown(page) {
  await page.waitForSelector('[data-action="sit"]');
  await page.click('[data-action="sit"]');
  await waitSeated(page);
}
