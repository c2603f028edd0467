// Accessibility, checked by axe-core in real Chromium: the lobby, a table mid-game of each game, the history, a
// replay (before and after the computer's review), the analysis board and the rules pages, in English, Bengali and
// Marathi, with no violation of any impact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HAVE_SERVER, setup, person, createTable, model, playByClicks, waitTurn, waitPly } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const AXE = readFileSync(new URL('../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** axe-core's violations on the page as it is now: one line per rule and element. */
async function violations(page) {
  // Evaluated through the browser's debugging protocol, so the page's Content-Security-Policy does not stop it.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 240)}`));
  });
}

/** Move once where it is the player's turn, and wait for the other side's answer. */
async function moveOnce(page, plies) {
  await waitTurn(page, 60000);
  const m = await model(page);
  await playByClicks(page, m.game.legal[0].wire);
  await waitPly(page, plies, 60000);
  await waitTurn(page, 60000);
}

for (const lang of ['en', 'bn', 'mr']) {
  test(`axe-core finds nothing on any page in ${lang}`, { skip, timeout: 300000 }, async () => {
    const env = await setup(['--review-ms', '30']);
    const found = [];
    const check = async (page, where) => { for (const v of await violations(page)) found.push(`${where}: ${v}`); };
    try {
      const p = await person(env, null, { lang });
      await p.page.waitForSelector('#create-form');
      await check(p.page, 'lobby');
      for (const game of ['chess', 'draughts', 'chess4']) {
        await createTable(p.page, { game, seats: game === 'chess4' ? ['me', 'cpu', 'cpu', 'cpu'] : ['me', 'cpu'] });
        await p.page.waitForSelector('svg.board .piece');
        await moveOnce(p.page, game === 'chess4' ? 4 : 2);
        await p.page.click('svg.board rect[data-square][tabindex="0"]');
        await check(p.page, `table ${game}`);
        await p.page.click('[data-action="resign"]');
        await p.page.click('[data-action="confirm-yes"]');
        if (game !== 'chess4') {
          await p.page.waitForSelector('#result');
          await check(p.page, `table ${game}, over`);
        }
      }
      await p.page.click('[data-nav="history"]');
      await p.page.waitForFunction(() => document.querySelectorAll('#history li[data-game]').length >= 2);
      await check(p.page, 'history');
      await p.page.click('#history [data-action="replay"]');
      await p.page.waitForSelector('svg.board .piece');
      await check(p.page, 'replay');
      await p.page.click('[data-action="review"]');
      await p.page.waitForSelector('#review-graph', { timeout: 90000 });
      await p.page.click('#moves .move[data-ply="1"]');
      await check(p.page, 'replay reviewed');
      await p.page.click('[data-action="analyse"]');
      await p.page.waitForSelector('#analysis-eval[data-state="eval"]', { timeout: 30000 });
      await p.page.click('svg.board rect[data-square][tabindex="0"]');
      await check(p.page, 'analysis');
      for (const rules of ['chess', 'draughts', 'chess4']) {
        await p.page.goto(`/rules/${rules}`);
        await p.page.waitForSelector('html[data-started="1"]');
        await p.page.waitForSelector('main h1, #main h1');
        await check(p.page, `rules ${rules}`);
      }
    } finally {
      await env.close();
    }
    assert.deepEqual(found, []);
  });
}
