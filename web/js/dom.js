// Small DOM helpers. Text is always inserted as text nodes: names and chat from players can never become HTML.
// `style` goes through the CSSOM: the Content-Security-Policy refuses style attributes.

import { displayName } from './i18n/index.js';

/** Make an element: h('button', {class: 'x', onclick: f, 'data-action': 'resign'}, 'text', child ...). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'style') el.style.cssText = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/** Append children: strings become text nodes, arrays are flattened, null skipped. */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return el;
}

/** A player's name in a `<bdi>`: it cannot reorder the text around it. A new player's given name is shown in the
 * page's language (displayName). */
export function nameNode(name) {
  return h('bdi', { dir: 'auto' }, displayName(String(name)));
}

/** A move's text (`Qn7xj11`, `g13-g11`) that may wrap only after a '-' or 'x', between its squares, never inside
 * a square's name: the parts with a `<wbr>` between them. */
export function notation(display) {
  return String(display).split(/(?<=[-x])/).flatMap((part, i) => (i ? [h('wbr', {}), part] : [part]));
}

/** Remove every child. */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Replace the children. */
export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'style' && v) el.style.cssText = v;
    else if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** An icon from the piece sprite (inlined into the page at start). */
export function pieceIcon(id, colour, size = 36) {
  return s('svg', { width: size, height: size, viewBox: '0 0 100 100', 'aria-hidden': 'true', style: colour ? `color:${colour}` : null },
    s('use', { href: '#' + id }));
}
