// Mute and block from a player's name at a table. Relies on: chat / event chat (a muted player's lines are not
// sent to the muter), relation / relations, sit with confirm after error confirm_blocked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, sitDown } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('[data-action="chat-send"]');
}

test('mute hides a player\'s chat; block asks before sitting with them', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const a = await person(env, 'Jaya');
    const b = await person(env, 'Kamal');
    const id = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto('/table/' + id);
    await sitDown(b.page);
    await say(a.page, 'hello <b>there</b>');
    await b.page.locator('#chat-lines li', { hasText: 'hello <b>there</b>' }).waitFor();
    assert.equal(await b.page.locator('#chat-lines b').count(), 0, 'chat is text, not HTML');
    // Kamal mutes Jaya from her name.
    await b.page.locator('#chat-lines button.pname', { hasText: 'Jaya' }).first().click();
    await b.page.click('#player-menu [data-action="mute"]');
    await b.page.waitForFunction(() => document.querySelectorAll('#chat-lines li').length === 0);
    await say(a.page, 'can you hear me');
    await say(b.page, 'quiet here');
    await a.page.locator('#chat-lines li', { hasText: 'quiet here' }).waitFor();
    assert.equal(await b.page.locator('#chat-lines li', { hasText: 'can you hear me' }).count(), 0);
    // Unmute shows her lines again (those sent while muted were never sent to Kamal).
    await b.page.locator('#seats button.pname', { hasText: 'Jaya' }).click();
    await b.page.click('#player-menu [data-action="unmute"]');
    await b.page.locator('#chat-lines li', { hasText: 'hello' }).waitFor();

    // Kamal blocks Jaya (with a confirmation), then a new table of Jaya's asks him before he sits.
    await b.page.locator('#seats button.pname', { hasText: 'Jaya' }).click();
    await b.page.click('#player-menu [data-action="block"]');
    await b.page.click('[data-action="confirm-yes"]');
    await a.page.click('[data-action="abort"]');
    const id2 = await createTable(a.page, { game: 'chess', seats: ['me', 'open'] });
    await b.page.goto('/table/' + id2);
    await b.page.click('[data-action="sit"]');
    await b.page.locator('dialog.confirm').waitFor();
    await b.page.click('[data-action="confirm-yes"]');
    await b.page.waitForFunction(() => window.__parlorTable().you === 1);
  } finally {
    await env.close();
  }
});
