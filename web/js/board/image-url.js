// The position image's address: kept in geometry.js, which the table page loads anyway (one request fewer on a
// first visit); this module names it for the pages and tests that import it from here.
export { imageUrl, positionText } from './geometry.js';
