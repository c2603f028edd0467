// Keyboard play keeps its place: after a typed move the move box keeps the focus (read-only while the other
// player thinks), and on the next turn the player types again without reaching for the mouse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, model, waitSeated, waitTurn, uci, createTable, sitDown } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const focused = (page) => page.evaluate(() => document.activeElement && document.activeElement.id);

test('typed moves keep the focus in the move box across turns', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const a = await person(env, 'Meera');
    const b = await person(env, 'Nikhil');
    const id = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto(`/table/${id}`);
    await sitDown(b.page);
    await waitSeated(a.page);
    await waitTurn(a.page);
    await a.page.focus('#move-input');
    await a.page.keyboard.type('e4');
    await a.page.keyboard.press('Enter');
    await b.page.waitForFunction(() => window.__parlorTable().game.moves.length === 1);
    assert.equal(await focused(a.page), 'move-input', 'the box keeps the focus after the move');
    assert.equal(await a.page.getAttribute('#move-input', 'aria-disabled'), 'true');
    await uci(b.page, 'e7e5');
    await waitTurn(a.page);
    assert.equal(await focused(a.page), 'move-input', 'and still has it on the next turn');
    await a.page.keyboard.type('Nf3');
    await a.page.keyboard.press('Enter');
    await b.page.waitForFunction(() => window.__parlorTable().game.moves.length === 3);
    assert.equal((await model(b.page)).game.moves[2].display, 'Nf3');
  } finally {
    await env.close();
  }
});

test('the board is played with arrow keys and Enter, each square read out as it is reached', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const p = await person(env, 'Tara');
    await p.page.click('[data-quick="chess"]');
    await waitTurn(p.page);
    // Tab reaches the board: exactly one square is in the Tab order.
    assert.equal(await p.page.locator('svg.board rect[data-square][tabindex="0"]').count(), 1);
    await p.page.focus('#move-input');
    await p.page.keyboard.press('Shift+Tab');
    for (let i = 0; i < 10 && !(await p.page.evaluate(() => document.activeElement.hasAttribute('data-square'))); i++) await p.page.keyboard.press('Shift+Tab');
    const at = async () => p.page.evaluate(() => [document.activeElement.getAttribute('data-square'), document.activeElement.getAttribute('aria-label')]);
    let [square] = await at();
    assert.ok(square, 'the board takes the focus');
    // Walk to e2 (White at the bottom: up is rank + 1).
    const walk = async (target) => {
      for (let guard = 0; guard < 16; guard++) {
        [square] = await at();
        if (square === target) return;
        const df = target.charCodeAt(0) - square.charCodeAt(0);
        const dr = Number(target.slice(1)) - Number(square.slice(1));
        await p.page.keyboard.press(df > 0 ? 'ArrowRight' : df < 0 ? 'ArrowLeft' : dr > 0 ? 'ArrowUp' : 'ArrowDown');
      }
    };
    await walk('e2');
    const [, label] = await at();
    assert.match(label, /e2/);
    assert.match(label, /pawn/i, 'the square is announced with its piece');
    assert.equal(await p.page.locator('svg.board .mark-cursor').count(), 1, 'the keyboard\'s square is marked');
    await p.page.keyboard.press('Enter');
    assert.equal(await p.page.locator('svg.board .dest').count(), 2, 'Enter selects the pawn: its two moves are shown');
    await p.page.keyboard.press('ArrowUp');
    await p.page.keyboard.press('ArrowUp');
    await p.page.keyboard.press('Space');
    await p.page.waitForFunction(() => window.__parlorTable().game.moves.length >= 1);
    assert.equal((await model(p.page)).game.moves[0].wire, 'e2e4');
    assert.equal((await at())[0], 'e4', 'the focus stays on the board where the move went');
    // The computer answers; the keyboard plays on from where it is.
    await waitTurn(p.page);
    assert.equal((await at())[0], 'e4');
    await walk('g1');
    await p.page.keyboard.press('Enter');
    await walk('f3');
    await p.page.keyboard.press('Enter');
    await p.page.waitForFunction(() => window.__parlorTable().game.moves.length >= 3);
    assert.equal((await model(p.page)).game.moves[2].wire, 'g1f3');
  } finally {
    await env.close();
  }
});
