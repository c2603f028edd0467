// Screenshots of the lobby and a table of each game at 390x844 and 1440x900, under e2e/screenshots/ for review.
// Relies on: create with CPU seats, table state.
import { test } from 'node:test';
import { mkdirSync } from 'node:fs';
import { HAVE_SERVER, setup, person, createTable, SHOTS, uci } from '../lib/harness.js';

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
  } finally {
    await env.close();
  }
});
