// A move made while the connection is down says it is being sent (and the board waits) instead of "Your turn";
// once the connection is back the move goes through and both players see it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, waitSeated, waitTurn, createTable, sitDown } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('a move made offline shows as being sent until it is through', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const a = await person(env, 'Tara');
    const b = await person(env, 'Umar');
    const id = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto(`/table/${id}`);
    await sitDown(b.page);
    await waitSeated(a.page);
    await waitTurn(a.page);
    await a.context.setOffline(true);
    // Clicked on the board as a player would (the move cannot be seen through until the connection is back).
    await a.page.click('svg.board rect[data-square="e2"]');
    await a.page.click('svg.board rect[data-square="e4"]');
    await a.page.waitForSelector('#sending');
    assert.equal(await a.page.locator('#your-turn').count(), 0, 'no "Your turn" while the move is on its way');
    await a.context.setOffline(false);
    await a.page.waitForSelector('#sending', { state: 'detached', timeout: 30000 });
    await b.page.waitForFunction(() => window.__parlorTable().game.moves.length === 1, null, { timeout: 30000 });
    assert.equal(await a.page.locator('#your-turn').count(), 0);
  } finally {
    await env.close();
  }
});
