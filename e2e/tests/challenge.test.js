// Challenges between two online players: one accepted (both land at the new table), one declined.
// Relies on: lobby players, challenge / challenge_answer / challenge message states, presence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, model, waitPath, waitSeated } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

async function challenge(from, toName) {
  await from.page.goto('/');
  const row = from.page.locator('#players li', { hasText: toName });
  await row.waitFor();
  await row.locator('[data-action="challenge"]').click();
  await from.page.click('[data-action="send-challenge"]');
}

test('a challenge accepted and one declined; going offline hides a player', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const a = await person(env, 'Hari');
    const b = await person(env, 'Indira');
    await challenge(a, 'Indira');
    await a.page.waitForSelector('#challenges [data-action="challenge-cancel"]');
    await b.page.waitForSelector('#challenges [data-action="challenge-accept"]');
    assert.match(await b.page.locator('#challenges').innerText(), /Hari/);
    await b.page.click('[data-action="challenge-accept"]');
    await waitPath(a.page, '^/table/');
    await waitPath(b.page, '^/table/');
    await waitSeated(a.page);
    await waitSeated(b.page);
    const ma = await model(a.page);
    const mb = await model(b.page);
    assert.equal(ma.id, mb.id);
    assert.notEqual(ma.you, mb.you);

    await challenge(a, 'Indira');
    await b.page.waitForSelector('#challenges [data-action="challenge-decline"]');
    await b.page.click('[data-action="challenge-decline"]');
    await a.page.locator('.toast.error', { hasText: 'declined' }).waitFor();
    // b hears of its own decline a moment after a does: wait for it rather than race it.
    await b.page.waitForFunction(() => document.querySelectorAll('#challenges [data-challenge]').length === 0);

    // Going offline: the other no longer sees you online.
    await b.page.goto('/');
    await b.page.locator('#players li', { hasText: 'Hari' }).waitFor();
    await a.page.click('#presence');
    await b.page.waitForFunction(() => !document.querySelector('#players').textContent.includes('Hari'));
    await a.page.click('#presence');
    await b.page.locator('#players li', { hasText: 'Hari' }).waitFor();
  } finally {
    await env.close();
  }
});
