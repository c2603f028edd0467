// Premoves: while the other player thinks, a player picks a piece and a square; the move is played the moment their
// turn comes, if it is legal then, and dropped with a word if not; a click cancels it. The server checks every move
// as always.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, model, sitDown, waitSeated, uci, waitPly } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const square = (page, sq) => page.click(`svg.board rect[data-square="${sq}"]`);
const wires = async (page) => (await model(page)).game.moves.map((m) => m.wire);

test('a planned move is played on the turn, cancelled by a click, dropped when illegal', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const a = await person(env, 'Mira');
    const b = await person(env, 'Arjun');
    const id = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto(`/table/${id}`);
    await sitDown(b.page);
    await waitSeated(a.page);
    await uci(a.page, 'e2e4');
    // Black thinks; White plans d2-d4.
    await square(a.page, 'd2');
    await square(a.page, 'd4');
    await a.page.waitForSelector('#premove');
    assert.match(await a.page.textContent('#premove'), /d2 → d4/);
    assert.equal(await a.page.locator('svg.board .mark-premove').count(), 2);
    assert.equal((await wires(a.page)).length, 1, 'nothing is sent before the turn');
    await uci(b.page, 'e7e5');
    await waitPly(a.page, 3);
    assert.deepEqual(await wires(b.page).then(() => wires(a.page)), ['e2e4', 'e7e5', 'd2d4'], 'played the moment the turn came');

    // A planned move cancelled by a click is not played.
    await square(a.page, 'g1');
    await square(a.page, 'f3');
    await a.page.waitForSelector('#premove');
    await square(a.page, 'a6');
    await a.page.waitForSelector('#premove', { state: 'detached' });
    await uci(b.page, 'e5d4');
    await waitPly(a.page, 4);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await wires(a.page)).length, 4, 'the cancelled move was not played');

    // A planned move that is illegal when the turn comes is dropped, with a word.
    await uci(a.page, 'd1d4');
    await square(a.page, 'd4');
    await square(a.page, 'd8');
    await a.page.waitForSelector('#premove');
    await uci(b.page, 'd8e7');
    await a.page.waitForSelector('.toast', { timeout: 10000 });
    assert.match(await a.page.textContent('#toasts'), /cannot be played/);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await wires(a.page)).length, 6, 'nothing illegal was sent');
  } finally {
    await env.close();
  }
});
