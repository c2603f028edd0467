// The review's numbers: winning chances and the graph's points, marks, evaluations as text, the analysis board's
// address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { winChance, chancePoints, splitAtMiddle, armyLines, plyAt, plyX, pathOf, markSymbol, signed, units, reviewPhase,
  analysisHref, parseAnalysisQuery, ANALYSIS_GAMES } from '../js/review-model.js';

const near = (a, b, msg) => assert.ok(Math.abs(a - b) < 1e-3, `${msg}: ${a} is not ${b}`);

test('winning chances follow the API curve: 0 at an equal position, +-1 at a forced win, symmetric', () => {
  near(winChance(0), 0, 'equal');
  near(winChance(100), 2 / (1 + Math.exp(-0.368)) - 1, 'a pawn up');
  near(winChance(100), 0.182, 'a pawn up is about 18%');
  near(winChance(-300), -winChance(300), 'symmetric');
  assert.ok(winChance(10000) > 0.9999 && winChance(-10000) < -0.9999, 'a forced win is all but certain');
});

test('the two-player graph: +1 at the top, -1 at the bottom, the positions spread over the width', () => {
  const pts = chancePoints([{ eval: [0, 0] }, { eval: [10000, -10000] }, { eval: [-10000, 10000] }], 600, 120);
  assert.equal(pts.length, 3);
  assert.deepEqual(pts.map((p) => p[0]), [0, 300, 600]);
  near(pts[0][1], 60, 'equal in the middle');
  near(pts[1][1], 0, 'won at the top');
  near(pts[2][1], 120, 'lost at the bottom');
  assert.deepEqual(chancePoints([{ eval: [50, -50] }], 600, 120).map((p) => p[0]), [0], 'one position sits at the left');
});

test('the areas above and below the middle meet where the line crosses it', () => {
  const { above, below } = splitAtMiddle([[0, 20], [100, 100]], 60);
  // The line crosses y = 60 half way, at x = 50.
  assert.deepEqual(above, [[0, 60], [0, 20], [50, 60], [100, 60], [100, 60]]);
  assert.deepEqual(below, [[0, 60], [0, 60], [50, 60], [100, 100], [100, 60]]);
  for (const [, y] of above) assert.ok(y <= 60);
  for (const [, y] of below) assert.ok(y >= 60);
  assert.deepEqual(splitAtMiddle([], 60), { above: [], below: [] });
});

test('four armies: a line each in points, all values and 0 inside the graph', () => {
  const positions = [{ eval: [0, 0, 0, 0] }, { eval: [2000, -300, 100, 0] }];
  const { lines, zero, lo, hi } = armyLines(positions, 600, 120, 6);
  assert.equal(lines.length, 4);
  assert.equal(lo, -3);
  assert.equal(hi, 20);
  near(lines[0][1][1], 6, 'the highest value at the top (less the padding)');
  near(lines[1][1][1], 114, 'the lowest at the bottom');
  near(zero, lines[3][1][1], 'a zero line');
  assert.deepEqual(lines[2].map((p) => p[0]), [0, 600]);
});

test('a click on the graph goes to the nearest ply; the cursor sits on its ply', () => {
  assert.equal(plyAt(0, 600, 61), 0);
  assert.equal(plyAt(600, 600, 61), 60);
  assert.equal(plyAt(304, 600, 61), 30);
  assert.equal(plyAt(-20, 600, 61), 0, 'left of the graph: the start');
  assert.equal(plyAt(900, 600, 61), 60, 'right of it: the end');
  assert.equal(plyAt(10, 600, 1), 0, 'a game without moves');
  assert.equal(plyX(30, 600, 61), 300);
  assert.equal(pathOf([[0, 1.234], [5, 6]]), 'M0 1.2 L5 6');
  assert.equal(pathOf([[0, 0], [1, 1]], true), 'M0 0 L1 1 Z');
});

test('marks and evaluations as the player reads them', () => {
  assert.equal(markSymbol('inaccuracy'), '?!');
  assert.equal(markSymbol('mistake'), '?');
  assert.equal(markSymbol('blunder'), '??');
  assert.equal(markSymbol(null), '');
  assert.equal(signed(35), '+0.35');
  assert.equal(signed(-120), '-1.20');
  assert.equal(signed(0), '0.00');
  assert.equal(signed(0.4), '0.00', 'no minus zero');
  assert.equal(units(1250), '12.5');
  assert.equal(units(-300, 2), '-3.00');
  assert.equal(reviewPhase({ state: 'done', review: {} }), 'done');
  assert.equal(reviewPhase({ state: 'queued', done: 0, total: 9, ahead: 2 }), 'waiting');
  assert.equal(reviewPhase({ state: 'running', done: 3, total: 9 }), 'waiting');
  assert.equal(reviewPhase({ state: 'none' }), 'none');
  assert.equal(reviewPhase(null), 'none');
});

test('the analysis board address: written and read back the same, unknown games become chess', () => {
  const start = 'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4';
  const href = analysisHref({ game: 'chess', start, moves: ['h5f7'] });
  assert.ok(href.startsWith('/analysis?game=chess&start='));
  assert.doesNotMatch(href, / /, 'spaces are encoded');
  assert.deepEqual(parseAnalysisQuery(href.slice('/analysis'.length)), { game: 'chess', start, moves: ['h5f7'] });
  assert.equal(analysisHref({ game: 'draughts/english', start: '', moves: [] }), '/analysis?game=draughts%2Fenglish');
  assert.deepEqual(parseAnalysisQuery('?game=draughts%2Finternational&moves=32-28,19-23,'), { game: 'draughts/international', start: '', moves: ['32-28', '19-23'] });
  assert.deepEqual(parseAnalysisQuery('?game=chess4&start=%20R-0%20&moves=h2-h3'), { game: 'chess4', start: 'R-0', moves: ['h2-h3'] });
  assert.equal(parseAnalysisQuery('?game=go').game, 'chess');
  assert.equal(parseAnalysisQuery('').game, 'chess');
  assert.equal(parseAnalysisQuery('?game=draughts').game, 'draughts/english');
  assert.deepEqual(ANALYSIS_GAMES, ['chess', 'draughts/english', 'draughts/international', 'draughts/russian', 'draughts/pool', 'chess4']);
});
