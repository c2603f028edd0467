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
