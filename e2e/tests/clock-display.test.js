// The clock of the seat to move shows both its whole time and the time left for this move, so nobody reads the
// per-move countdown as their whole clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, waitSeated, waitTurn, createTable, sitDown, model } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('the running clock shows the whole time and this move\'s time', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const a = await person(env, 'Rohan');
    const b = await person(env, 'Sara');
    const id = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto(`/table/${id}`);
    await sitDown(b.page);
    await waitSeated(a.page);
    await waitTurn(a.page);
    const me = (await model(a.page)).you;
    const clock = a.page.locator(`[data-clock="${me}"]`);
    await a.page.waitForFunction((i) => document.querySelector(`[data-clock="${i}"] .clock-move`).textContent !== '', me);
    const total = await clock.locator('.clock-total').innerText();
    const move = await clock.locator('.clock-move').innerText();
    assert.match(total, /^1[45]:\d\d$/, `the whole clock: ${total}`);
    assert.match(move, /^this move (1:00|0:[0-5]\d)$/, `this move: ${move}`);
    // The other seat's clock waits with its whole time and no move time.
    const other = a.page.locator(`[data-clock="${1 - me}"]`);
    assert.equal(await other.locator('.clock-total').innerText(), '15:00');
    assert.equal(await other.locator('.clock-move').innerText(), '');
  } finally {
    await env.close();
  }
});
