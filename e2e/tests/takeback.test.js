// Takeback: against the computer, after a move and the computer's answer, "Take back my move" puts the game back
// to before the player's move (and the answer), and the player plays another; between two people it is asked for
// and happens when the other agrees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, model, playByClicks, waitPly, waitTurn, createTable, sitDown, waitSeated } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('a move against the computer is taken back at once; between people when the other agrees', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const p = await person(env, 'Kavya');
    await p.page.click('[data-quick="chess"]');
    await waitTurn(p.page);
    assert.equal(await p.page.locator('[data-action="takeback"]').count(), 0, 'nothing to take back before a move');
    await playByClicks(p.page, 'e2e4');
    await waitPly(p.page, 2);
    await waitTurn(p.page);
    const answer = (await model(p.page)).game.moves[1].wire;
    await p.page.click('[data-action="takeback"]');
    await p.page.waitForFunction(() => window.__parlorTable().game.moves.length === 0);
    await waitTurn(p.page);
    assert.match(await p.page.getAttribute('svg.board rect[data-square="e2"]', 'aria-label'), /pawn/i, 'the pawn is home again');
    assert.match(await p.page.getAttribute('svg.board rect[data-square="e4"]', 'aria-label'), /empty/);
    await playByClicks(p.page, 'd2d4');
    await waitPly(p.page, 2);
    const m = await model(p.page);
    assert.equal(m.game.moves[0].wire, 'd2d4');
    assert.ok(answer, 'the first answer was there before');

    // Between two people it is asked for, and taken back when the other agrees.
    const a = await person(env, 'Dev');
    const b = await person(env, 'Isha');
    const id = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto(`/table/${id}`);
    await sitDown(b.page);
    await waitSeated(a.page);
    await waitTurn(a.page);
    await playByClicks(a.page, 'e2e4');
    await a.page.click('[data-action="takeback"]');
    await b.page.waitForSelector('#takeback-offer');
    assert.match(await b.page.textContent('#takeback-offer'), /Dev\u2069? asks to take back/);
    await a.page.waitForSelector('#takeback-offer');
    await b.page.click('[data-action="takeback-accept"]');
    await a.page.waitForFunction(() => window.__parlorTable().game.moves.length === 0);
    await waitTurn(a.page);
    assert.equal(await b.page.locator('#takeback-offer').count(), 0);
  } finally {
    await env.close();
  }
});
