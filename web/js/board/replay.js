// Positions for the replay view: the game API gives the start and, with every move, the position after it (read
// by the rules on the server), so the browser only reads positions and never works a move out itself.

import { parsePosition } from './geometry.js';

/** The list of piece maps: index 0 the start, index k after k moves. A move without its position (which the
 * server always sends) keeps the position before it. */
export function replayPositions(game, start, moves) {
  const out = [parsePosition(game, start).pieces];
  for (const m of moves) {
    out.push(m.position ? parsePosition(game, m.position).pieces : out[out.length - 1]);
  }
  return out;
}
