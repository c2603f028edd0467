// Switching language to বাংলা and मराठी leaves no English on the lobby and table pages.
// Relies on: the pages only (strings from web/js/i18n); a table with a CPU (create with a cpu seat).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
// Latin words that may remain: language names in the switcher, file format names, notation and coordinates.
const ALLOWED = new Set(['English', 'PGN', 'PDN', 'PGN4']);

async function englishWords(page) {
  const text = await page.evaluate(() => {
    const clone = document.body.cloneNode(true);
    for (const el of clone.querySelectorAll('#lang, svg, #moves, #live, .move-form .muted, #chat-lines, .pname, #share, script, noscript, #fallback')) el.remove();
    return clone.innerText || clone.textContent;
  });
  return (text.match(/[A-Za-z]{3,}/g) || []).filter((w) => !ALLOWED.has(w));
}

for (const lang of ['bn', 'mr']) {
  test(`no English left in ${lang} on the lobby and the table`, { skip, timeout: 120000 }, async () => {
    const env = await setup();
    try {
      const p = await person(env, lang === 'bn' ? 'সুমি' : 'सई');
      await p.page.selectOption('#lang', lang);
      await p.page.waitForFunction((l) => document.documentElement.lang === l, lang);
      await p.page.waitForSelector('#create-form');
      assert.deepEqual(await englishWords(p.page), []);
      for (const game of ['chess', 'draughts', 'chess4']) {
        await createTable(p.page, { game, seats: game === 'chess4' ? ['me', 'cpu', 'cpu', 'cpu'] : ['me', 'cpu'] });
        await p.page.waitForSelector('svg.board .piece');
        assert.deepEqual(await englishWords(p.page), [], game);
        // In four-player chess a resignation only takes one army out and play goes on: check it while playing.
        if (game === 'chess4') continue;
        await p.page.click('[data-action="resign"]');
        await p.page.click('[data-action="confirm-yes"]');
        await p.page.waitForSelector('#result');
        assert.deepEqual(await englishWords(p.page), [], game + ' after the end');
      }
    } finally {
      await env.close();
    }
  });
}
