// The lobby lists only tables with a person at them (connected, or away within the grace period), newest first,
// each with who made it and when; a table whose people left goes from the list once their grace period is over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('tables whose people left leave the lobby; newest first with host and age', { skip, timeout: 120000 }, async () => {
  const env = await setup(['--grace-seconds', '3']);
  try {
    const host = await person(env, 'Omkar');
    const older = await createTable(host.page, { game: 'chess', seats: ['me', 'open'] });
    const newer = await createTable(host.page, { game: 'draughts', seats: ['me', 'open'] });
    const guest = await person(env, 'Pallavi');
    await guest.page.waitForSelector(`[data-table="${older}"]`);
    await guest.page.waitForSelector(`[data-table="${newer}"]`);
    const order = await guest.page.$$eval('#tables [data-table]', (rows) => rows.map((r) => r.dataset.table));
    assert.ok(order.indexOf(newer) < order.indexOf(older), `newest first: ${order}`);
    const row = await guest.page.locator(`[data-table="${newer}"] .thost`).innerText();
    assert.match(row, /Omkar/);
    assert.match(row, /just now|min ago/);

    // The host leaves: within the grace period the tables stay, after it they go.
    await host.context.close();
    await guest.page.waitForFunction((ids) => ids.every((id) => !document.querySelector(`[data-table="${id}"]`)), [older, newer], { timeout: 15000 });
  } finally {
    await env.close();
  }
});
