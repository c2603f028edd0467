// English draughts between two people, by clicking, with a multi-jump (a double capture by White), then a
// resignation. Relies on: LegalMove.path/captures for draughts, PDN square numbering (1 = b8, 32 = g1), seat 0 =
// Black (moves first in English draughts), event moved/ended, resign.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, sitDown, waitTurn, waitPly, model, sq } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
// The last move, 27x11, jumps twice (over 24 and 16).
const LINE = ['11-15', '23-18', '8-11', '27-23', '3-8', '32-27', '11-16', '18x11', '8x15', '24-19', '15x24', '27x11'];

function pdn(n) {
  const row = Math.floor((n - 1) / 4);
  const k = (n - 1) % 4;
  return [2 * k + (row % 2 === 0 ? 1 : 0), 7 - row];
}

test('English draughts with a multi-jump', { skip, timeout: 180000 }, async () => {
  const env = await setup();
  try {
    const a = await person(env, 'Chandra'); // seat 0: Black, moves first
    const b = await person(env, 'Dipa');
    const id = await createTable(a.page, { game: 'draughts', variant: 'english', seats: ['me', 'open'] });
    await b.page.goto('/table/' + id);
    await sitDown(b.page);
    for (const [i, move] of LINE.entries()) {
      const page = i % 2 === 0 ? a.page : b.page;
      await waitTurn(page);
      const nums = move.split(/[-x]/).map(Number);
      const from = pdn(nums[0]);
      const to = pdn(nums[nums.length - 1]);
      const m = await model(page);
      const options = m.game.legal.filter((x) => x.from.join() === from.join() && x.to.join() === to.join());
      assert.ok(options.length >= 1, `${move} legal (have ${m.game.legal.map((x) => x.wire).join(' ')})`);
      await page.click(`svg.board rect[data-square="${sq(from)}"]`);
      await page.click(`svg.board rect[data-square="${sq(to)}"]`);
      if (options.length > 1) await page.click(`.chooser [data-wire="${options[0].wire}"]`);
      await waitPly(a.page, i + 1);
      await waitPly(b.page, i + 1);
    }
    const m = await model(a.page);
    const last = m.game.moves[m.game.moves.length - 1];
    assert.match(last.display, /^27x/);
    // Both jumped men are gone: 24 (g3) and 16 (g5) are empty, White stands on 11 (f6).
    const pieces = await a.page.evaluate(() => [...document.querySelectorAll('svg.board rect[data-square]')].map((r) => [r.dataset.square, r.getAttribute('aria-label')]));
    const label = Object.fromEntries(pieces);
    assert.match(label.g3, /empty/);
    assert.match(label.g5, /empty/);
    assert.match(label.f6, /white/);
    await a.page.click('[data-action="resign"]');
    await a.page.click('[data-action="confirm-yes"]');
    await b.page.waitForSelector('#result[data-reason="resignation"]');
  } finally {
    await env.close();
  }
});
