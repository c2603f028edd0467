// A position's pieces from its text (FEN, PDN FEN, FEN4): kept in geometry.js, which the table page loads anyway
// (one request fewer on a first visit); this module names them for the pages and tests that import them from here.
export { ARMIES, parsePosition, parseFen, parsePdnFen, parseFen4 } from './geometry.js';
