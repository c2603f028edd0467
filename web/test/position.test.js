// Reading FEN, PDN FEN and FEN4 for display.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePosition } from '../js/board/geometry.js';

const START4 = 'R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3';

test('chess FEN start position', () => {
  const { pieces, turn } = parsePosition('chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  assert.equal(pieces.size, 32);
  assert.equal(turn, 0);
  assert.deepEqual(pieces.get('4,0'), { role: 'K', colour: 'w', seat: 0, sprite: 'wK' });
  assert.equal(pieces.get('3,7').sprite, 'bQ');
  assert.equal(parsePosition('chess', '8/8/8/8/8/8/8/K6k b - - 0 1').turn, 1);
});

test('draughts PDN FEN with kings and ranges', () => {
  const { pieces, turn } = parsePosition('draughts/english', 'W:W21,22,K3:B1-2,K9');
  assert.equal(turn, 1, 'White is the second seat in English draughts');
  assert.equal(pieces.size, 6);
  assert.equal(pieces.get('0,0'), undefined);
  assert.deepEqual(pieces.get('5,7'), { role: 'K', colour: 'w', seat: 1, sprite: 'king-white' }); // 3 = f8
  assert.equal(pieces.get('1,7').sprite, 'man-black'); // 1 = b8
  const start = parsePosition('draughts/english', 'B:W21-32:B1-12');
  assert.equal(start.pieces.size, 24);
  assert.equal(start.turn, 0);
  const intl = parsePosition('draughts/international', 'W:W31-50:B1-20');
  assert.equal(intl.pieces.size, 40);
  assert.equal(intl.turn, 0);
  assert.equal(intl.pieces.get('0,0').colour, 'w'); // 46 = a1
});

test('FEN4 start position and robustness', () => {
  const { pieces, turn } = parsePosition('chess4', START4);
  assert.equal(pieces.size, 64);
  assert.equal(turn, 0);
  assert.deepEqual(pieces.get('7,0'), { role: 'K', colour: 'red', seat: 0, sprite: 'army-K' }); // h1
  assert.equal(pieces.get('0,6').colour, 'blue'); // a7 bK
  assert.equal(pieces.get('0,6').role, 'K');
  assert.equal(pieces.get('6,13').role, 'K'); // g14 yK
  assert.equal(pieces.get('13,7').colour, 'green'); // n8 gK
  assert.equal(pieces.get('13,7').role, 'K');
  // An extra en-passant field before the board, grey pieces, another side to move.
  const other = parsePosition('chess4', "Y-0,1,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-{'enPassant':('','','','')}-14/14/14/14/14/14/14/14/14/14/14/14/14/3,dK,10");
  assert.equal(other.turn, 2);
  assert.deepEqual(other.pieces.get('3,0'), { role: 'K', colour: 'grey', seat: null, sprite: 'army-K' });
});
