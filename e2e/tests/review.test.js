// The computer's review of a finished game, for chess, checkers and four-player chess: the replay page offers it,
// shows its progress, then draws the evaluation graph, marks the moves the review marked (and only those), draws
// the best move as an arrow and sums up each player; a review already done shows at once, the graph takes a click,
// and "Analyse from here" opens the analysis board at the position shown. The server thinks 30 ms a position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { HAVE_SERVER, setup, person, model, playByClicks, waitTurn, createTable, waitPath, sq, SHOTS } from '../lib/harness.js';
import { wireSquares } from '../../web/js/table-model.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** Play one of `prefer` if legal, else the first legal move; wait for the player's next turn (or the end). */
async function move(page, prefer = []) {
  await waitTurn(page, 60000);
  const m = await model(page);
  if (m.game.outcome) return;
  const wire = prefer.find((w) => m.game.legal.some((x) => x.wire === w)) || m.game.legal[0].wire;
  await playByClicks(page, wire);
}

/** Resign the game at the table and return its id once it is over. */
async function resign(page) {
  await waitTurn(page, 60000);
  if (!(await model(page)).game.outcome) {
    await page.click('[data-action="resign"]');
    await page.click('[data-action="confirm-yes"]');
  }
  await page.waitForFunction(() => { const t = window.__parlorTable(); return t.game && t.game.outcome && t.game.id; }, null, { timeout: 60000 });
  return (await model(page)).game.id;
}

/** Open the replay, ask for the review, and check everything it shows against the review's JSON. */
async function checkReview(page, id, game, { done = false } = {}) {
  await page.goto(`/game/${id}`);
  if (!done) {
    await page.waitForSelector('[data-action="review"]');
    assert.equal(await page.locator('#review-graph').count(), 0, 'nothing reviewed before it is asked for');
    await page.click('[data-action="review"]');
    await page.waitForSelector('#review-progress');
  }
  await page.waitForSelector('#review-graph', { timeout: 90000 });
  assert.equal(await page.locator('#review-progress').count(), 0, 'the progress makes way for the review');
  const body = await page.evaluate(async (gid) => (await fetch(`/api/game/${gid}/review`)).json(), id);
  assert.equal(body.state, 'done');
  const r = body.review;
  assert.equal(r.game, game);
  // The game can be downloaded with the review's evaluations as comments.
  const href = await page.getAttribute('[data-action="download-review"]', 'href');
  const text = await page.evaluate(async (url) => (await fetch(url)).text(), href);
  assert.match(text, game === 'chess4' ? /\{Values: R / : /\{\[%eval /, text);
  assert.equal(r.positions.length, r.moves.length + 1);

  // The graph: a line through every position (four lines in four-player chess, in the armies' colours).
  const lines = await page.$$eval('#review-graph .graph-line', (els) => els.map((e) => ({ d: e.getAttribute('d'), stroke: e.getAttribute('stroke') })));
  assert.equal(lines.length, game === 'chess4' ? 4 : 1);
  for (const l of lines) assert.equal(l.d.split(/[ML]/).filter((x) => x.trim()).length, r.positions.length, l.d);
  if (game === 'chess4') assert.deepEqual(lines.map((l) => l.stroke), ['#d8473d', '#3f7fd9', '#e3b91f', '#3f9e4a']);
  else assert.equal(await page.locator('#review-graph .graph-above').count(), 1);

  // The marks: exactly the moves the review marked, each with its symbol and its word.
  const dom = await page.$$eval('#moves .move', (els) => els.map((e) => ({ ply: Number(e.dataset.ply), mark: e.dataset.mark || null,
    cls: [...e.classList].filter((c) => c.startsWith('mark-')), text: e.textContent })));
  assert.equal(dom.length, r.moves.length);
  const marked = r.moves.filter((m) => m.mark);
  assert.equal(dom.filter((d) => d.mark).length, marked.length, 'as many marked moves as the review has marks');
  for (const d of dom) {
    const want = r.moves[d.ply - 1].mark;
    assert.equal(d.mark, want, `move ${d.ply}`);
    assert.deepEqual(d.cls, want ? ['mark-' + want] : []);
    if (want) assert.ok(d.text.includes(MARKS[want]) && d.text.toLowerCase().includes(want), d.text);
  }

  // The start: the best move as an arrow from its first square to its last, its line and evaluation in words.
  await page.keyboard.press('Home');
  await page.waitForSelector('.graph-cursor[data-ply="0"]', { state: 'attached' });
  const best = r.positions[0].best;
  assert.ok(best, 'the start has a best move');
  const { from, to } = wireSquares(game, best);
  const arrow = page.locator('svg.board .layer-marks .best-arrow');
  assert.equal(await arrow.count(), 1);
  assert.equal(await arrow.getAttribute('data-from'), sq(from));
  assert.equal(await arrow.getAttribute('data-to'), sq(to));
  const line = await page.textContent('#review-best');
  assert.ok(line.includes('Best: ' + r.positions[0].pv.join(' ')), line);
  assert.match(line, game === 'chess4' ? /Red -?\d+\.\d · Blue/ : /Evaluation: [+-]?\d+\.\d\d|mates in|wins in/);
  // Each marked move says what was better.
  for (const m of marked.filter((x) => x.best_display).slice(0, 2)) {
    await page.click(`#moves .move[data-ply="${m.ply}"]`);
    assert.match(await page.textContent('#review-best'), new RegExp(`${m.mark}\\. Best was `, 'i'));
  }

  // A click on the graph's right end goes to the last move; the arrow keys step back.
  const graph = page.locator('#review-graph');
  await graph.scrollIntoViewIfNeeded();
  const box = await graph.boundingBox();
  await graph.click({ position: { x: box.width - 2, y: box.height / 2 } });
  await page.waitForSelector(`.graph-cursor[data-ply="${r.moves.length}"]`, { state: 'attached' });
  assert.match(await page.textContent('#ply'), new RegExp(`Move ${r.moves.length} of ${r.moves.length}`));
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector(`.graph-cursor[data-ply="${r.moves.length - 1}"]`, { state: 'attached' });
  assert.equal(await page.locator(`#moves .move.current[data-ply="${r.moves.length - 1}"]`).count(), 1);

  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/review-${game.replace('/', '-')}.png`, fullPage: true });

  // Each player's summary, as counted by the review.
  const rows = await page.$$eval('#review-summary li', (els) => els.map((e) => ({ seat: Number(e.dataset.seat),
    counts: [...e.querySelectorAll('[data-count]')].map((c) => Number(c.dataset.count)), text: e.textContent })));
  assert.equal(rows.length, r.players.length);
  for (const p of r.players) {
    const row = rows.find((x) => x.seat === p.seat);
    assert.deepEqual(row.counts, [p.inaccuracy, p.mistake, p.blunder]);
    assert.match(row.text, /Average loss: \d+\.\d\d/);
  }
  return r;
}

test('review of a chess game: graph, marks, best move, summary; shown at once when done; analyse from here', { skip, timeout: 240000 }, async () => {
  const env = await setup(['--review-ms', '30']);
  try {
    const p = await person(env, 'Mira');
    await p.page.click('[data-quick="chess"]');
    await waitPath(p.page, '^/table/');
    // 1. e4 and 2. Ba6: the bishop is lost to the b-pawn or the knight, which the review marks.
    await move(p.page, ['e2e4']);
    await move(p.page, ['f1a6', 'd1h5']);
    await move(p.page, ['d1h5', 'd1g4', 'g1f3']);
    const id = await resign(p.page);
    const r = await checkReview(p.page, id, 'chess');
    console.log('chess marks:', r.moves.map((m) => `${m.display}${m.mark ? ' ' + m.mark : ''}`).join(', '));
    if (r.moves[2] && r.moves[2].wire === 'f1a6') assert.ok(r.moves[2].mark, 'giving the bishop away is marked');

    // Opened again, the review is there without asking.
    await p.page.goto(`/game/${id}`);
    await p.page.waitForSelector('#review-graph');
    assert.equal(await p.page.locator('[data-action="review"]').count(), 0);
    assert.equal(await p.page.locator('#moves .move[data-mark]').count(), r.moves.filter((m) => m.mark).length);

    // "Analyse from here" opens the analysis board at the position shown, with the moves up to it.
    await p.page.click('#moves .move[data-ply="2"]');
    const href = await p.page.getAttribute('[data-action="analyse"]', 'href');
    const start = encodeURIComponent('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    assert.equal(href, `/analysis?game=chess&start=${start}&moves=${r.moves.slice(0, 2).map((m) => m.wire).join(',')}`);
    await p.page.click('[data-action="analyse"]');
    await waitPath(p.page, '^/analysis$');
    await p.page.waitForSelector('#analysis-eval[data-state="eval"]', { timeout: 30000 });
    assert.deepEqual(await p.page.$$eval('#moves .move', (els) => els.map((e) => e.textContent)), r.moves.slice(0, 2).map((m) => m.display));
    assert.deepEqual(p.errors, []);
  } finally {
    await env.close();
  }
});

test('review of a checkers game on a phone, and a review asked of a game still being played', { skip, timeout: 240000 }, async () => {
  const env = await setup(['--review-ms', '30']);
  try {
    const p = await person(env, 'Tanu', { viewport: { width: 390, height: 844 } });
    await p.page.selectOption('#quick-variant', 'english');
    await p.page.click('[data-quick="draughts"]');
    await waitPath(p.page, '^/table/');
    for (let i = 0; i < 3; i++) await move(p.page);
    const id = await resign(p.page);
    // The finished table offers the review: its link opens the replay and starts it at once.
    await p.page.click('[data-action="review-game"]');
    await waitPath(p.page, `^/game/${id}`);
    await p.page.waitForSelector('#review-graph', { timeout: 90000 });
    await checkReview(p.page, id, 'draughts/english', { done: true });
    const fit = await p.page.evaluate(() => ({ overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      graph: document.querySelector('#review-graph').getBoundingClientRect().width,
      wide: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className.baseVal ?? e.className}: ${e.textContent.slice(0, 60)}`) }));
    assert.ok(fit.overflow <= 0, `no sideways scrolling (${fit.overflow}px): ${fit.wide.join(' | ')}`);
    assert.ok(fit.graph > 250 && fit.graph <= 390, `the graph takes the phone's width (${fit.graph}px)`);
    assert.deepEqual(p.errors, []);

    // A game still being played cannot be reviewed: the server says so (409 live).
    await p.page.goto('/');
    await p.page.click('[data-quick="chess"]');
    await waitPath(p.page, '^/table/');
    await move(p.page, ['e2e4']);
    const live = (await model(p.page)).game.id;
    const res = await p.page.evaluate(async (gid) => { const r = await fetch(`/api/game/${gid}/review`, { method: 'POST' }); return [r.status, (await r.json()).error]; }, live);
    assert.deepEqual(res, [409, 'live']);
  } finally {
    await env.close();
  }
});

test('review of a four-player game ended by its move limit: four lines in the armies\' colours', { skip, timeout: 300000 }, async () => {
  const env = await setup(['--review-ms', '30']);
  try {
    const p = await person(env, 'Ravi');
    await createTable(p.page, { game: 'chess4', seats: ['me', 'cpu', 'cpu', 'cpu'], moveLimit: 8 });
    await move(p.page, ['h2-h3']);
    await move(p.page, ['g2-g3']);
    await p.page.waitForSelector('#result', { timeout: 90000 });
    const id = (await model(p.page)).game.id;
    const r = await checkReview(p.page, id, 'chess4');
    assert.equal(r.moves.length, 8);
    assert.equal(r.positions[0].eval.length, 4);
    assert.deepEqual(p.errors, []);
  } finally {
    await env.close();
  }
});
