// Four-player chess: one person and three computer players, played to its end (a short move limit).
// Relies on: TableSpec seats with cpu levels and rules.move_limit, FEN4 positions, four seats, points/eliminated,
// outcome places.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, model, playByClicks } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('four-player chess with three CPUs to its end', { skip, timeout: 300000 }, async () => {
  const env = await setup();
  try {
    const me = await person(env, 'Esha');
    await createTable(me.page, { game: 'chess4', seats: ['me', 'cpu', 'cpu', 'cpu'], moveLimit: 16 });
    await me.page.waitForSelector('svg.board[data-game="chess4"]');
    assert.equal(await me.page.locator('svg.board rect[data-square]').count(), 160);
    for (let guard = 0; guard < 40; guard++) {
      await me.page.waitForFunction(() => {
        const m = window.__parlorTable();
        return m && m.game && (m.game.outcome || (m.game.turn === m.you && m.game.legal.length));
      }, null, { timeout: 120000 });
      const m = await model(me.page);
      if (m.game.outcome) break;
      // A pawn move if there is one (keeps the game simple), else the first legal move.
      const mv = m.game.legal.find((x) => x.from[1] === 1 && x.to[1] === 2) || m.game.legal[0];
      await playByClicks(me.page, mv.wire);
    }
    await me.page.waitForSelector('#result', { timeout: 120000 });
    const m = await model(me.page);
    assert.ok(m.game.outcome, 'the game ended');
    assert.equal(m.game.outcome.places.length, 4);
    assert.equal(await me.page.locator('#seats .seat').count(), 4);
    assert.equal(await me.page.locator('[data-points]').count(), 4);
  } finally {
    await env.close();
  }
});
