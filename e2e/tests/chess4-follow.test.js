// A four-player game one can follow: the computers answer at least half a second apart; every army's latest move
// stays marked on the board, in its colour and with its shape, until that army moves again; the move list keeps one column per army (its shape at the head) and one
// row per round, also after an army goes out, and a long move stays inside its own cell. On a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, model, playByClicks, waitTurn, waitPly, sq } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const ARMIES = ['red', 'blue', 'yellow', 'green'];

/** The board's per-army marks: {army: destination square}. */
const marks = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('svg.board rect.mark-army.to')]
  .map((r) => [r.getAttribute('data-army'), r.getAttribute('data-mark-square')])));

/** Each seat's latest move's destination, by army, from the table model (the first game: seat = colour). */
function latest(m) {
  const out = {};
  for (const mv of m.game.moves) {
    if (m.game.eliminated[mv.seat]) continue;
    out[ARMIES[mv.seat]] = mv.wire.toLowerCase().match(/[a-n](?:1[0-4]|[1-9])/g)[1];
  }
  return out;
}

/** The move list as the page lays it out: per row, [colour, left, right] of each move. */
const rows = (page) => page.evaluate(() => [...document.querySelectorAll('#moves li.move-row:not(.move-head)')].map((li) =>
  [...li.querySelectorAll('.move')].map((el) => {
    const r = el.getBoundingClientRect();
    return { colour: Number(el.getAttribute('data-colour')), ply: Number(el.getAttribute('data-ply')), left: r.left, right: r.right };
  })));

test('four-player: each army keeps its last move marked, and the move list its column', { skip, timeout: 300000 }, async () => {
  const env = await setup();
  try {
    const me = await person(env, 'Esha', { viewport: { width: 390, height: 844 } });
    await createTable(me.page, { game: 'chess4', seats: ['me', 'cpu', 'cpu', 'cpu'], moveLimit: 40 });
    await waitTurn(me.page, 60000);
    let m = await model(me.page);
    await playByClicks(me.page, (m.game.legal.find((x) => x.from[1] === 1 && x.to[1] === 3) || m.game.legal[0]).wire);
    // The three computers answer at a pace one can follow: at least half a second apart.
    let at = Date.now();
    for (const ply of [2, 3, 4]) {
      await waitPly(me.page, ply, 60000);
      const gap = Date.now() - at;
      assert.ok(gap >= 500, `reply ${ply - 1} came ${gap} ms after the move before it`);
      at = Date.now();
    }
    await waitTurn(me.page, 60000);
    m = await model(me.page);
    assert.equal(m.game.moves.length, 4);
    assert.deepEqual(await marks(me.page), latest(m), 'all four armies\' moves are marked, each where it went');
    assert.equal(await me.page.locator('svg.board use.mark-army-shape').count(), 4, 'each mark carries its army\'s shape');
    assert.equal(await me.page.locator('svg.board .mark-army.to.newest[data-army="green"]').count(), 1, 'the newest is Green\'s');

    // My second move moves only my mark.
    const before = await marks(me.page);
    const quiet = m.game.legal.find((x) => x.from[1] === 1 && x.to[1] === 2 && !m.game.moves.some((y) => y.wire.startsWith(sq(x.from))));
    await playByClicks(me.page, (quiet || m.game.legal[0]).wire);
    const now = await marks(me.page);
    assert.notEqual(now.red, before.red);
    for (const a of ['blue', 'yellow', 'green']) assert.equal(now[a], before[a], `${a} keeps its mark until it moves`);

    // Going out (a resignation takes one army out, play goes on): my mark goes, my column stays empty.
    await me.page.click('[data-action="resign"]');
    await me.page.click('[data-action="confirm-yes"]');
    await waitPly(me.page, 8 + 6, 60000);
    m = await model(me.page);
    assert.equal(m.game.eliminated[0], true);
    const shown = await marks(me.page);
    assert.equal(shown.red, undefined, 'an army that is out has no mark');
    assert.deepEqual(shown, latest(m));

    const list = await rows(me.page);
    const byPly = new Map(m.game.moves.map((mv, i) => [i + 1, mv.seat]));
    for (const row of list) {
      for (const cell of row) assert.equal(cell.colour, byPly.get(cell.ply), `move ${cell.ply} is in its army's column`);
      for (let i = 1; i < row.length; i++) {
        assert.ok(row[i - 1].colour < row[i].colour, 'a row holds each army at most once, in turn order');
        assert.ok(row[i - 1].right <= row[i].left + 0.5, `move ${row[i - 1].ply} does not run into move ${row[i].ply}`);
      }
    }
    const after = list.slice(2);
    assert.ok(after.length >= 2 && after.every((row) => row.every((c) => c.colour !== 0)), 'rounds after going out have Red\'s cell empty');
    // Every army's moves line up under its shape.
    const lefts = await me.page.evaluate(() => {
      const out = {};
      for (const el of document.querySelectorAll('#moves .move, #moves .move-head .move-col')) {
        const c = el.getAttribute('data-colour') ?? String([...el.parentNode.children].indexOf(el) - 1);
        (out[c] = out[c] || new Set()).add(Math.round(el.getBoundingClientRect().left));
      }
      return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.size]));
    });
    for (const c of ['0', '1', '2', '3']) assert.equal(lefts[c], 1, `column ${c} is one column`);
  } finally {
    await env.close();
  }
});
