// What a table says around the board: the typed-move hint gives the notation of the game at hand, and an open seat
// says it is free (not its colour twice).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('the move hint fits the game, and an open seat reads as free', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const p = await person(env, 'Lata');
    const hints = {};
    for (const [game, seats] of [['chess', ['me', 'open']], ['draughts', ['me', 'open']], ['chess4', ['me', 'open', 'open', 'open']]]) {
      await createTable(p.page, { game, seats });
      await p.page.waitForSelector('.seat[data-seat="1"]');
      hints[game] = (await p.page.locator('#move-hint').innerText()).trim();
      const open = await p.page.locator('.seat[data-seat="1"] .seat-who').innerText();
      assert.match(open, /^Free seat/, `${game}: ${open}`);
      const words = open.split(/\s+/);
      assert.equal(new Set(words).size, words.length, `${game}: a word twice in ${JSON.stringify(open)}`);
    }
    assert.doesNotMatch(hints.chess, /checkers|11-15/, hints.chess);
    assert.match(hints.chess, /Nf3/);
    assert.match(hints.draughts, /11-15/);
    assert.doesNotMatch(hints.draughts, /Nf3/);
    assert.doesNotMatch(hints.chess4, /checkers|11-15/, hints.chess4);
  } finally {
    await env.close();
  }
});
