// Switching language to বাংলা and मराठी leaves no English on the lobby, table, history and replay pages.
// Relies on: the pages only (strings from web/js/i18n); a table with a CPU (create with a cpu seat); the history
// (CPU seats named `CPU (level)` by the server).
// The player keeps the name the server gave (`Guest-AB12`), which every page shows in its own language ("অতিথি
// ৪৩৮৫৮"), so nothing is left out of the check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
// Latin words (two letters or more, so a stray AM/PM counts) that may remain: language names in the switcher, file format names, notation and coordinates.
const ALLOWED = new Set(['English', 'PGN', 'PDN', 'PGN4']);

async function englishWords(page, names) {
  const text = await page.evaluate((names) => {
    const clone = document.body.cloneNode(true);
    for (const el of clone.querySelectorAll('#lang, svg, #moves, #live, .move-form .muted, #chat-lines, .pname, #share, script, noscript, #fallback')) el.remove();
    let text = clone.innerText || clone.textContent;
    for (const n of names) text = text.split(n).join(' ');
    return text;
  }, names);
  return (text.match(/[A-Za-z]{2,}/g) || []).filter((w) => !ALLOWED.has(w));
}

for (const lang of ['bn', 'mr']) {
  test(`no English left in ${lang} on the lobby and the table`, { skip, timeout: 120000 }, async () => {
    const env = await setup();
    try {
      const p = await person(env);
      assert.match(await p.page.inputValue('#name'), /^Guest \d+$/);
      const names = [];
      await p.page.selectOption('#lang', lang);
      await p.page.waitForFunction((l) => document.documentElement.lang === l, lang);
      await p.page.waitForSelector('#create-form');
      assert.deepEqual(await englishWords(p.page, names), []);
      for (const game of ['chess', 'draughts', 'chess4']) {
        await createTable(p.page, { game, seats: game === 'chess4' ? ['me', 'cpu', 'cpu', 'cpu'] : ['me', 'cpu'] });
        await p.page.waitForSelector('svg.board .piece');
        assert.deepEqual(await englishWords(p.page, names), [], game);
        // In four-player chess a resignation only takes one army out and play goes on: check it while playing.
        if (game === 'chess4') continue;
        await p.page.click('[data-action="resign"]');
        await p.page.click('[data-action="confirm-yes"]');
        await p.page.waitForSelector('#result');
        assert.deepEqual(await englishWords(p.page, names), [], game + ' after the end');
      }
      // The finished games in the history, and the replay of one.
      await p.page.click('[data-nav="history"]');
      await p.page.waitForFunction(() => document.querySelectorAll('#history li[data-game]').length === 2);
      assert.deepEqual(await englishWords(p.page, names), [], 'history');
      await p.page.click('#history [data-action="replay"]');
      await p.page.waitForSelector('svg.board .piece');
      assert.deepEqual(await englishWords(p.page, names), [], 'replay');
    } finally {
      await env.close();
    }
  });
}
