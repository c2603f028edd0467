// A four-player table from end to end: a first game to its move limit, a rematch that starts one seat further
// clockwise (Blue opens it; every seat keeps its army, so the player is still Red, at the bottom of the board, and
// the move list's rounds start with Blue), and a 30 s turn that runs out: a computer moves for the player, who takes
// the seat back with one tap and moves again. The computers play at level 8 (hard), which thinks three seconds a
// move, so the rematch goes on for seconds after the computer takes the player's seat (lower levels answer at once).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, model, playByClicks, waitTurn } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

/** Play a quiet pawn move if there is one, else the first legal move. */
async function playSomething(page) {
  const m = await model(page);
  const pawn = m.game.legal.find((x) => !x.captures || !x.captures.length);
  await playByClicks(page, (pawn || m.game.legal[0]).wire);
}

test('four-player table: move limit, rotated rematch, a turn that runs out and a seat taken back', { skip, timeout: 300000 }, async () => {
  const env = await setup();
  try {
    const me = await person(env, 'Esha');
    await createTable(me.page, { game: 'chess4', seats: ['me', 'cpu:hard', 'cpu:hard', 'cpu:hard'], time: '30s', moveLimit: 12 });
    let m = await model(me.page);
    assert.equal(m.spec.time.per_move_ms, 30000);
    assert.equal(m.spec.rules.rotate_first, true);
    for (let guard = 0; guard < 4; guard++) {
      await waitTurn(me.page, 60000);
      m = await model(me.page);
      if (m.game.outcome) break;
      await playSomething(me.page);
    }
    await me.page.waitForSelector('#result', { timeout: 60000 });
    m = await model(me.page);
    assert.equal(m.game.moves.length, 12, 'the move limit ended the first game');
    assert.equal(m.game.moves[0].seat, 0, 'Red (seat 1) moved first');
    assert.match(await me.page.textContent('#seats .seat[data-seat="0"]'), /Red/);

    // The rematch starts one seat further clockwise: Blue (seat 2) moves first; the player still plays Red.
    const firstGame = m.game.id;
    await me.page.click('[data-action="rematch"]');
    await me.page.waitForFunction((id) => { const t = window.__parlorTable(); return t.game && t.game.id !== id && t.game.moves.length >= 1; },
      firstGame, { timeout: 30000 });
    m = await model(me.page);
    assert.equal(m.game.moves[0].seat, 1, 'the computer in seat 2 opened');
    assert.match(m.game.start, /^B-/, 'Blue to move in the stored start');
    assert.match(await me.page.textContent('#seats .seat[data-seat="0"]'), /Red/);
    assert.match(await me.page.textContent('#seats .seat[data-seat="1"]'), /Blue/);
    // Red's army is drawn at the bottom: its king's square h1 is on the board's bottom row.
    const king = await me.page.evaluate(() => {
      const rect = document.querySelector('svg.board rect[data-square="h1"]').getBoundingClientRect();
      const board = document.querySelector('svg.board').getBoundingClientRect();
      return { bottom: board.bottom - rect.bottom, height: rect.height };
    });
    assert.ok(king.bottom < king.height * 1.5, `Red's home is at the bottom (${JSON.stringify(king)})`);
    assert.deepEqual(await me.page.$$eval('#moves .move-head .move-col', (els) => els.map((e) => e.getAttribute('data-colour'))),
      ['1', '2', '3', '0'], 'the rounds run Blue, Yellow, Green, Red');

    // The player's turn comes and runs out: 30 s later a computer moves for them.
    await waitTurn(me.page, 60000);
    const plyAtTurn = (await model(me.page)).game.moves.length;
    await me.page.waitForSelector('#cpu-playing', { timeout: 45000 });
    await me.page.waitForFunction((n) => { const t = window.__parlorTable(); return t.game.moves.length > n && t.game.moves[n].seat === 0; },
      plyAtTurn, { timeout: 30000 });
    // One tap takes the seat back; the next turn is the player's own again.
    // (The page redraws as the computers move, so the button is pressed from the page itself.)
    await me.page.waitForSelector('[data-action="take-back-seat"]', { timeout: 10000 });
    await me.page.evaluate(() => document.querySelector('[data-action="take-back-seat"]').click());
    await me.page.waitForFunction(() => { const t = window.__parlorTable(); return t.you === 0 && !t.seats[0].cpu; }, null, { timeout: 30000 });
    await waitTurn(me.page, 60000);
    m = await model(me.page);
    if (!m.game.outcome) {
      const before = m.game.moves.length;
      await playSomething(me.page);
      m = await model(me.page);
      assert.equal(m.game.moves[before].seat, 0, 'the player moved for themselves');
    }
  } finally {
    await env.close();
  }
});
