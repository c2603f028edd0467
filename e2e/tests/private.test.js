// A private table joined by its link. Relies on: TableSpec.private, created.code, TableState.code, GET /t/{CODE},
// open {code}, sit, lobby (a private table is not listed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, sitDown, model, waitPath } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('joining a private table by link', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const host = await person(env, 'Farhan');
    const guest = await person(env, 'Gita');
    const id = await createTable(host.page, { game: 'chess', private: true, seats: ['me', 'open'] });
    await host.page.waitForSelector('#share-code');
    const code = (await host.page.locator('#share-code').innerText()).trim();
    const link = await host.page.locator('#share-link').inputValue();
    assert.ok(code.length >= 4);
    assert.ok(link.endsWith('/t/' + code));
    // Not in the guest's lobby.
    await guest.page.waitForSelector('#tables');
    assert.equal(await guest.page.locator(`[data-table="${id}"]`).count(), 0);
    await guest.page.goto(link);
    await waitPath(guest.page, '^/table/' + id);
    await sitDown(guest.page);
    await host.page.waitForFunction(() => window.__parlorTable().game !== null);
    const m = await model(guest.page);
    assert.equal(m.you, 1);
    assert.equal(m.seats[0].player.name, 'Farhan');
    // A wrong code: table not found.
    await guest.page.goto('/t/ZZZZZZ');
    await guest.page.waitForSelector('#not-found');
  } finally {
    await env.close();
  }
});
