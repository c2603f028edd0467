// A quick game against the computer: the player picks the computer's level (and the checkers variant) where they
// start, and such a game has no clock, so a beginner cannot lose it by thinking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, model, waitPath } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

test('quick computer games: level and variant chosen on the spot, no clock', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const p = await person(env, 'Qasim');
    assert.equal(await p.page.inputValue('#quick-level'), '1', 'level 1 the first time');
    await p.page.selectOption('#quick-level', 'hard');
    await p.page.selectOption('#quick-variant', 'international');
    await p.page.click('[data-quick="draughts"]');
    await waitPath(p.page, '^/table/');
    await p.page.waitForFunction(() => window.__parlorTable && window.__parlorTable() && window.__parlorTable().game);
    let m = await model(p.page);
    assert.equal(m.spec.game, 'draughts/international');
    assert.equal(m.seats[1].cpu, 'hard');
    assert.equal(m.spec.time.base_ms, null);
    assert.equal(m.spec.time.per_move_ms, null);

    // The choice is remembered; level 1 again for this test's second game.
    await p.page.goto('/');
    assert.equal(await p.page.inputValue('#quick-level'), 'hard');
    await p.page.selectOption('#quick-level', '1');
    await p.page.click('[data-quick="chess"]');
    await waitPath(p.page, '^/table/');
    await p.page.waitForFunction(() => window.__parlorTable && window.__parlorTable() && window.__parlorTable().game);
    m = await model(p.page);
    assert.equal(m.spec.game, 'chess');
    assert.equal(m.seats[1].cpu, '1');
    assert.equal(m.spec.time.per_move_ms, null);
    assert.equal(m.game.clocks, null, 'no clock runs');
  } finally {
    await env.close();
  }
});
