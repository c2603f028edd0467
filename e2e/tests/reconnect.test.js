// Reconnecting: the browser goes offline for 10 s in the middle of a game and comes back with no move or clock
// time lost; and a player who stays away longer than the grace period loses the game (abandoned).
// Relies on: ping, reconnect backoff, open with since, move resend with the same ack/ply (stale_move if played),
// seat.away, grace period (server flag --grace-seconds), outcome reason abandoned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, sitDown, uci, model, waitPly, waitTurn, sq } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('offline for 10 s: the move made offline arrives, clocks agree', { skip, timeout: 180000 }, async () => {
  const env = await setup(['--grace-seconds', '60']);
  try {
    const a = await person(env, 'Lata');
    const b = await person(env, 'Mohan');
    const id = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto('/table/' + id);
    await sitDown(b.page);
    await uci(a.page, 'e2e4');
    await waitTurn(b.page);
    await b.context.setOffline(true);
    await b.page.locator('#status [data-status="trouble"]').waitFor({ timeout: 30000 });
    await a.page.locator('#seats .seat[data-seat="1"] [data-away]').waitFor({ timeout: 30000 });
    // Mohan moves while offline: kept and sent again after the reconnect.
    const m = await model(b.page);
    const mv = m.game.legal.find((x) => x.wire === 'e7e5');
    await b.page.click(`svg.board rect[data-square="${sq(mv.from)}"]`);
    await b.page.click(`svg.board rect[data-square="${sq(mv.to)}"]`);
    await new Promise((r) => setTimeout(r, 10000));
    await b.context.setOffline(false);
    await waitPly(a.page, 2, 30000);
    await waitPly(b.page, 2, 30000);
    await b.page.waitForSelector('#status', { state: 'hidden' });
    const ma = await model(a.page);
    const mb = await model(b.page);
    assert.deepEqual(ma.game.moves.map((x) => x.wire), ['e2e4', 'e7e5']);
    assert.deepEqual(mb.game.moves.map((x) => x.wire), ['e2e4', 'e7e5']);
    const ca = ma.game.clocks.remaining_ms;
    const cb = mb.game.clocks.remaining_ms;
    assert.ok(Math.abs(ca[1] - cb[1]) < 1500, `clocks agree: ${ca} vs ${cb}`);
    // Mohan's clock was charged for the time he took (about 10 s), not reset and not doubled.
    assert.ok(ca[1] < 900000 - 9000 && ca[1] > 900000 - 40000, `charged: ${ca[1]}`);
    await a.page.locator('#seats .seat[data-seat="1"] [data-away]').waitFor({ state: 'detached' });
  } finally {
    await env.close();
  }
});

test('away longer than the grace period: the game ends, abandoned', { skip, timeout: 120000 }, async () => {
  const env = await setup(['--grace-seconds', '3']);
  try {
    const a = await person(env, 'Nalini');
    const b = await person(env, 'Omkar');
    const id = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto('/table/' + id);
    await sitDown(b.page);
    await uci(a.page, 'd2d4');
    await uci(b.page, 'd7d5');
    await b.context.setOffline(true);
    await a.page.waitForSelector('#result[data-reason="abandoned"]', { timeout: 60000 });
    await b.context.setOffline(false);
    await b.page.waitForSelector('#result[data-reason="abandoned"]', { timeout: 60000 });
    await b.page.locator('.toast.error').first().waitFor();
    const m = await model(b.page);
    assert.equal(m.game.outcome.winner, 0);
  } finally {
    await env.close();
  }
});
