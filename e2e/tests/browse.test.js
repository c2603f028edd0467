// Looking back during a live game, and turning the board round: a click on a move (or the arrow keys on the move
// list) shows the position after it while play goes on, with a way back to the live position; the board can be
// turned round at any time. Nothing of it disturbs the game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, model, playByClicks, waitPly, waitTurn } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const label = (page, sq) => page.getAttribute(`svg.board rect[data-square="${sq}"]`, 'aria-label');

test('a live game can be looked back at and the board turned round', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const p = await person(env, 'Ravi');
    await p.page.click('[data-quick="chess"]');
    await waitTurn(p.page);
    await playByClicks(p.page, 'e2e4');
    await waitTurn(p.page);
    await playByClicks(p.page, 'd2d4');
    // Straight after the move, look back at the first one while the computer answers.
    await p.page.click('#moves .move[data-ply="1"]');
    await p.page.waitForSelector('#browse:not([hidden])');
    await waitPly(p.page, 4);
    assert.match(await label(p.page, 'e4'), /pawn/i, 'after 1. e4 the pawn is on e4');
    assert.match(await label(p.page, 'd4'), /empty/, 'and d4 is empty: the board shows move 1, not the game now');
    assert.match(await label(p.page, 'd2'), /pawn/i);
    assert.equal(await p.page.locator('#moves .move.current[data-ply="1"]').count(), 1);
    // Its moves cannot be played from there.
    await p.page.click('svg.board rect[data-square="g1"]');
    assert.equal(await p.page.locator('svg.board .dest').count(), 0, 'the looked-back board takes no move');
    // The arrow keys on the move list step on; the bar says it is the player's turn.
    await p.page.focus('#moves');
    await p.page.keyboard.press('ArrowRight');
    await p.page.keyboard.press('ArrowRight');
    await p.page.waitForSelector('#moves .move.current[data-ply="3"]');
    assert.match(await label(p.page, 'd4'), /pawn/i);
    assert.match(await p.page.textContent('#browse'), /your turn/);
    // Back to the game: the live position, and the player moves on.
    await p.page.click('[data-action="live"]');
    await p.page.waitForSelector('#browse[hidden]', { state: 'attached' });
    const m = await model(p.page);
    assert.equal(m.game.moves.length, 4);
    // Turned round: White's corner a1 goes from the bottom left to the top right, and back.
    const corner = () => p.page.evaluate(() => {
      const a1 = document.querySelector('svg.board rect[data-square="a1"]').getBoundingClientRect();
      const h8 = document.querySelector('svg.board rect[data-square="h8"]').getBoundingClientRect();
      return a1.top > h8.top ? 'bottom' : 'top';
    });
    assert.equal(await corner(), 'bottom');
    await p.page.click('[data-action="flip"]');
    assert.equal(await corner(), 'top');
    await playByClicks(p.page, m.game.legal.find((x) => x.wire === 'g1f3') ? 'g1f3' : m.game.legal[0].wire);
    await p.page.click('[data-action="flip"]');
    assert.equal(await corner(), 'bottom');
  } finally {
    await env.close();
  }
});
