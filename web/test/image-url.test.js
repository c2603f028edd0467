// Image links: URLs of position texts, and piece maps written back as text that reads to the same pieces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageUrl, positionText } from '../js/board/geometry.js';
import { parsePosition } from '../js/board/geometry.js';

const START = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
const START4 = 'R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3';

test('image URLs carry the position, orientation and last move', () => {
  const u = new URL(imageUrl('chess', START, 2, { from: [4, 1], to: [4, 3] }), 'http://x');
  assert.equal(u.pathname, '/image/chess.png');
  assert.equal(u.searchParams.get('fen'), START);
  assert.equal(u.searchParams.get('orientation'), 'black');
  assert.equal(u.searchParams.get('lastmove'), 'e2e4');
  const d = new URL(imageUrl('draughts/international', 'W:W31-50:B1-20', 0, { from: [0, 2], to: [1, 3] }), 'http://x');
  assert.equal(d.pathname, '/image/draughts.png');
  assert.equal(d.searchParams.get('variant'), 'international');
  assert.equal(d.searchParams.get('lastmove'), '36-31');
  const f = new URL(imageUrl('chess4', START4, 1), 'http://x');
  assert.equal(f.searchParams.get('fen4'), START4);
  assert.equal(f.searchParams.get('orientation'), 'blue');
});

test('piece maps are written back as text that reads to the same pieces', () => {
  for (const [game, text, turn] of [['chess', START, 1], ['draughts/english', 'B:W21,22,K30:B1,2,K9', 0], ['draughts/russian', 'W:W21,22:B1', 0], ['chess4', START4, 0]]) {
    const pieces = parsePosition(game, text).pieces;
    const back = positionText(game, pieces, turn);
    assert.deepEqual(parsePosition(game, back).pieces, pieces, `${game}: ${back}`);
    assert.equal(parsePosition(game, back).turn, turn, back);
  }
  assert.equal(positionText('chess', parsePosition('chess', START).pieces, 1), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1');
  // An army without a king is eliminated: grey pieces, and the turn passes it.
  const noRed = parsePosition('chess4', START4.replace('rK', 'rN')).pieces;
  const text = positionText('chess4', noRed, 0);
  assert.match(text, /^B-1,0,0,0-/);
  assert.match(text, /dN,dB,dQ,dN/);
});
