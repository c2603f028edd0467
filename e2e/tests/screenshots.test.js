// Screenshots of the lobby and a table of each game at 390x844 and 1440x900, under e2e/screenshots/ for review; and
// on a phone, a four-player game two rounds in, in Marathi, and a quick game against the computer in Bengali.
// Relies on: create with CPU seats, table state.
import { test } from 'node:test';
import { mkdirSync } from 'node:fs';
import { HAVE_SERVER, setup, person, createTable, SHOTS, uci, model, playByClicks, waitPly, waitTurn } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('screenshots of lobby and tables', { skip, timeout: 240000 }, async () => {
  mkdirSync(SHOTS, { recursive: true });
  const env = await setup();
  try {
    for (const [size, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1440, height: 900 }]]) {
      const p = await person(env, 'Priya', { viewport });
      await p.page.waitForSelector('#create-form');
      await p.page.screenshot({ path: `${SHOTS}/lobby-${size}.png`, fullPage: true });
      for (const game of ['chess', 'draughts', 'chess4']) {
        await createTable(p.page, { game, seats: game === 'chess4' ? ['me', 'cpu', 'cpu', 'cpu'] : ['me', 'cpu'] });
        await p.page.waitForSelector('svg.board .piece');
        if (game === 'chess') { await uci(p.page, 'e2e4'); await p.page.click('svg.board rect[data-square="g1"]'); }
        await p.page.screenshot({ path: `${SHOTS}/table-${game}-${size}.png`, fullPage: true });
      }
      await p.context.close();
    }
    const phone = { width: 390, height: 844 };
    const mr = await person(env, null, { viewport: phone, lang: 'mr' });
    await createTable(mr.page, { game: 'chess4', seats: ['me', 'cpu', 'cpu', 'cpu'] });
    for (const ply of [4, 8]) {
      await waitTurn(mr.page, 60000);
      const m = await model(mr.page);
      const pawn = m.game.legal.find((x) => x.from[1] === 1 && x.to[1] >= 2) || m.game.legal[0];
      await playByClicks(mr.page, pawn.wire);
      await waitPly(mr.page, ply, 60000);
    }
    await mr.page.screenshot({ path: `${SHOTS}/table-chess4-phone-mr.png`, fullPage: true });
    const bn = await person(env, null, { viewport: phone, lang: 'bn' });
    await bn.page.click('[data-quick="chess"]');
    await uci(bn.page, 'e2e4');
    await waitTurn(bn.page);
    await bn.page.screenshot({ path: `${SHOTS}/computer-chess-phone-bn.png`, fullPage: true });
  } finally {
    await env.close();
  }
});
