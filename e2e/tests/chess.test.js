// Two people play chess to checkmate by clicking, with castling, en passant and a promotion on the way.
// Relies on: hello/welcome, set_name/named, create/created/table, open, sit, event started/moved/ended, move/ack,
// LegalMove.promotion (four moves share from and to), GET /api/game/{id}/export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, sitDown, uci, model, waitPly } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

// 3. exd6 is en passant, 5. cxb8=Q a promotion (chosen in the chooser), 8. O-O castling, 10. Bxf7#.
const LINE = 'e2e4 a7a6 e4e5 d7d5 e5d6 g8f6 d6c7 a6a5 c7b8q a8b8 g1f3 h7h6 f1c4 g7g6 e1g1 h8g8 f3e5 c8d7 c4f7'.split(' ');

test('chess to checkmate by clicking: castling, en passant, promotion', { skip, timeout: 180000 }, async () => {
  const env = await setup();
  try {
    const white = await person(env, 'Asha');
    const black = await person(env, 'Bijoy');
    const id = await createTable(white.page, { game: 'chess', seats: ['me', 'open'] });
    await black.page.goto('/table/' + id);
    await sitDown(black.page);
    await white.page.waitForFunction(() => window.__parlorTable().game !== null);
    for (const [i, wire] of LINE.entries()) {
      const p = i % 2 === 0 ? white.page : black.page;
      await uci(p, wire);
      await waitPly(i % 2 === 0 ? black.page : white.page, i + 1);
    }
    for (const p of [white.page, black.page]) {
      await p.waitForSelector('#result[data-reason="checkmate"]');
    }
    const m = await model(black.page);
    assert.equal(m.game.outcome.winner, 0);
    assert.equal(m.game.outcome.score, '1-0');
    assert.deepEqual(m.game.moves.map((x) => x.display).slice(4, 5), ['exd6']);
    assert.ok(m.game.moves[8].display.startsWith('cxb8=Q'));
    assert.equal(m.game.moves[14].display, 'O-O');
    assert.equal(await black.page.locator('#moves .move').count(), LINE.length);
    // The board of Black is turned: h1 at the top-left.
    const first = await black.page.locator('svg.board rect[data-square]').first().getAttribute('data-square');
    assert.ok(first, 'squares are labelled');
    // Download the PGN.
    const href = await white.page.locator('[data-action="download"]').getAttribute('href');
    const pgn = await (await fetch(env.base + href)).text();
    assert.match(pgn, /1-0/);
    assert.match(pgn, /exd6/);
  } finally {
    await env.close();
  }
});
