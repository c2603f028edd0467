// Draughts square numbers are readable (4.5:1 at least against their outline) and never hidden under a piece; the
// move list can take the keyboard focus (it scrolls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

test('draughts numbers are legible above the pieces; the move list takes focus', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const p = await person(env, 'Vikram');
    await createTable(p.page, { game: 'draughts', seats: ['me', 'cpu'] });
    await p.page.waitForSelector('svg.board .num');
    const info = await p.page.evaluate(() => {
      const num = document.querySelector('svg.board .num');
      const layers = [...document.querySelectorAll('svg.board > g')].map((g) => g.getAttribute('class'));
      const style = getComputedStyle(num);
      return { layer: num.parentNode.getAttribute('class'), layers, fill: style.fill, stroke: style.stroke, width: style.strokeWidth, order: style.paintOrder };
    });
    assert.ok(info.layers.indexOf(info.layer) > info.layers.indexOf('layer-pieces'), `numbers above pieces: ${info.layers} / ${info.layer}`);
    const [a, b] = [luminance(info.fill), luminance(info.stroke)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    assert.ok(ratio >= 4.5, `contrast ${ratio.toFixed(2)} (${info.fill} on ${info.stroke})`);
    assert.match(info.order, /stroke/);
    assert.equal(await p.page.getAttribute('#moves', 'tabindex'), '0');
  } finally {
    await env.close();
  }
});
