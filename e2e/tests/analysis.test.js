// The analysis board: reached from the header, a position set up from its FEN (a mate in one: the computer says
// so and draws the mating move), moves played on the board by clicks and browsed with the keys, a move played
// from an earlier position cutting the later ones, a pasted PGN imported, a bad position refused in words, and an
// address that opens a draughts game and a four-player game where it says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, waitPath } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const MATE_IN_ONE = '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1';
const label = (page, sq) => page.getAttribute(`svg.board rect[data-square="${sq}"]`, 'aria-label');
const moveTexts = (page) => page.$$eval('#moves .move', (els) => els.map((e) => e.textContent));

/** Wait until the computer has answered for the position shown (its evaluation or the game's end). */
function settled(page) {
  return page.waitForSelector('#analysis-eval[data-state="eval"], #analysis-eval[data-state="over"]', { timeout: 30000 });
}

test('analysis board: set up, mate shown, moves by clicks, import, errors, addresses', { skip, timeout: 180000 }, async () => {
  const env = await setup();
  try {
    const p = await person(env, 'Anu');
    const { page } = p;
    await page.click('.nav a[data-nav="analysis"]');
    await waitPath(page, '^/analysis$');
    await page.waitForSelector('#analysis-game');
    await settled(page);
    assert.equal(await page.locator('svg.board rect[data-square]').count(), 64, 'chess by default');

    // A mate in one: the evaluation says who mates, the arrow shows the mating move, the line names it.
    await page.selectOption('#analysis-game', 'chess');
    await page.fill('#analysis-start', MATE_IN_ONE);
    await page.click('[data-action="setup"]');
    await page.waitForSelector('#analysis-eval[data-mate]', { timeout: 30000 });
    assert.equal(await page.getAttribute('#analysis-eval', 'data-mate'), '1');
    assert.match(await page.textContent('#analysis-eval'), /White mates in 1/);
    assert.match(await page.textContent('#analysis-pv'), /^Best: Ra8#/);
    const arrow = page.locator('svg.board .layer-marks .best-arrow');
    assert.equal(await arrow.count(), 1);
    assert.equal(await arrow.getAttribute('data-from'), 'a1');
    assert.equal(await arrow.getAttribute('data-to'), 'a8');
    assert.match(page.url(), /start=6k1%2F5ppp/, 'the address names the position');

    // The mate played by clicks: the move list and the board change, and the game is over.
    await page.click('svg.board rect[data-square="a1"]');
    await page.click('svg.board rect[data-square="a8"]');
    await page.waitForSelector('#analysis-eval[data-state="over"]', { timeout: 30000 });
    assert.deepEqual(await moveTexts(page), ['Ra8#']);
    assert.match(await label(page, 'a8'), /white rook/);
    assert.match(await label(page, 'a1'), /empty/);
    assert.match(await page.textContent('#analysis-eval'), /White wins/);
    assert.equal(await page.locator('svg.board .best-arrow').count(), 0, 'no best move after the mate');
    assert.match(page.url(), /moves=a1a8$/);

    // Back with the arrow key; another move there cuts the mate off the list.
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('#analysis-eval[data-mate="1"]');
    assert.match(await label(page, 'a1'), /white rook/);
    await page.click('svg.board rect[data-square="g1"]');
    await page.click('svg.board rect[data-square="f1"]');
    await page.waitForFunction(() => [...document.querySelectorAll('#moves .move')].map((e) => e.textContent).join() === 'Kf1');
    await settled(page);
    assert.match(await label(page, 'f1'), /white king/);
    await page.click('[data-action="prev"]');
    await page.click('[data-action="next"]');
    await page.waitForSelector('#moves .move.current[data-ply="1"]');

    // A pasted game: its moves are listed and the board shows its end.
    await page.fill('#analysis-import', '[Event "Casual"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n');
    await page.click('[data-action="import"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 5, null, { timeout: 30000 });
    await settled(page);
    assert.deepEqual(await moveTexts(page), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5']);
    assert.match(await label(page, 'b5'), /white bishop/);
    assert.match(await label(page, 'c6'), /black knight/);
    assert.equal(await page.inputValue('#analysis-start'), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    await page.click('#moves .move[data-ply="2"]');
    await settled(page);
    assert.match(await label(page, 'e5'), /black pawn/);
    assert.match(await label(page, 'f3'), /empty/);
    assert.equal(await page.locator('svg.board .best-arrow').count(), 1);

    // What cannot be read is said in words, and nothing else changes.
    await page.fill('#analysis-import', 'this is not a game');
    await page.click('[data-action="import"]');
    await page.waitForSelector('#analysis-error [data-error="bad_import"]');
    assert.match(await page.textContent('[role="alert"]#analysis-error'), /could not be read/);
    assert.equal(await page.locator('#moves .move').count(), 5);
    await page.fill('#analysis-start', 'not a position');
    await page.click('[data-action="setup"]');
    await page.waitForSelector('#analysis-error [data-error="bad_position"]', { timeout: 30000 });
    assert.match(await page.textContent('#analysis-error'), /position could not be read/);
    await settled(page);
    assert.equal(await page.locator('#moves .move').count(), 5, 'the game from before is kept');
    assert.match(await label(page, 'e5'), /black pawn/);
    assert.match(await label(page, 'f3'), /empty/);

    // An address opens a draughts game at its moves, with a bad move cut off and said.
    await page.goto('/analysis?game=draughts%2Fenglish&moves=11-15,23-19,1-99');
    await page.waitForSelector('#analysis-error [data-error="bad_move"]', { timeout: 30000 });
    assert.match(await page.textContent('#analysis-error'), /Move 3 is not allowed/);
    await settled(page);
    assert.equal(await page.inputValue('#analysis-game'), 'draughts/english');
    assert.deepEqual(await moveTexts(page), ['11-15', '23-19']);
    assert.equal(await page.locator('svg.board rect[data-square]').count(), 32);
    assert.match(await page.textContent('#analysis-eval'), /^Evaluation: [+-]?\d\.\d\d$/);
    assert.match(page.url(), /moves=11-15,23-19$/);

    // Four-player chess: each army's points, and a move played on the board.
    await page.selectOption('#analysis-game', 'chess4');
    await page.waitForFunction(() => document.querySelectorAll('svg.board rect[data-square]').length === 160);
    await settled(page);
    assert.match(await page.textContent('#analysis-eval'), /Red -?\d+\.\d · Blue -?\d+\.\d · Yellow -?\d+\.\d · Green -?\d+\.\d/);
    await page.click('svg.board rect[data-square="h2"]');
    await page.click('svg.board rect[data-square="h3"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1, null, { timeout: 30000 });
    await settled(page);
    assert.match(await label(page, 'h3'), /Red pawn/);
    await page.click('[data-action="flip"]');
    const top = await page.evaluate(() => document.querySelector('rect[data-square="h1"]').getBoundingClientRect().top
      < document.querySelector('rect[data-square="h14"]').getBoundingClientRect().top);
    assert.ok(top, 'flipped: Red\'s side at the top');
    assert.deepEqual(p.errors.filter((e) => !/400 \(Bad Request\)/.test(e)), []);
  } finally {
    await env.close();
  }
});

test('the analysis board in Bengali and Marathi: words and errors in the page\'s language', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    for (const [lang, mate, err] of [['bn', /সাদা ১ চালে চেকমেট করবে/, /পড়া গেল না/], ['mr', /पांढरा १ चालींत मात करेल/, /वाचता आली नाही/]]) {
      const p = await person(env, null, { lang });
      await p.page.goto('/analysis?game=chess&start=' + encodeURIComponent(MATE_IN_ONE));
      await p.page.waitForSelector('#analysis-eval[data-mate="1"]', { timeout: 30000 });
      assert.match(await p.page.textContent('#analysis-eval'), mate);
      await p.page.fill('#analysis-start', 'x');
      await p.page.click('[data-action="setup"]');
      await p.page.waitForSelector('#analysis-error [data-error="bad_position"]', { timeout: 30000 });
      assert.match(await p.page.textContent('#analysis-error'), err);
      await p.context.close();
    }
  } finally {
    await env.close();
  }
});
