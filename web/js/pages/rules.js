// Rules pages for the three games. The texts live in the i18n files with a light markup: "# " heading,
// "- " list item, other lines paragraphs; everything is inserted as text.

import { h, clear } from '../dom.js';
import { t } from '../i18n/index.js';

const GAMES = ['chess', 'draughts', 'chess4'];

/** Turn a rules text into blocks: [{kind: 'h'|'p'|'li', text}]. Pure (tested). */
export function parseRules(text) {
  return String(text).split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
    if (l.startsWith('# ')) return { kind: 'h', text: l.slice(2) };
    if (l.startsWith('- ')) return { kind: 'li', text: l.slice(2) };
    return { kind: 'p', text: l };
  });
}

export function mount(app, main, params) {
  const page = h('article', { class: 'card rules', id: 'rules', 'data-game': params.game });
  main.appendChild(page);
  function render() {
    clear(page);
    page.appendChild(h('nav', { class: 'tabs row wrap', 'aria-label': t('rules.title') },
      GAMES.map((g) => h('a', { href: '/rules/' + g, class: 'button' + (g === params.game ? ' primary' : ''), 'aria-current': g === params.game ? 'page' : null }, t('game.' + g)))));
    let list = null;
    let first = true;
    for (const b of parseRules(t('rules.' + params.game))) {
      if (b.kind === 'li') {
        if (!list) { list = h('ul', {}); page.appendChild(list); }
        list.appendChild(h('li', {}, b.text));
        continue;
      }
      list = null;
      page.appendChild(h(b.kind === 'h' ? (first ? 'h1' : 'h2') : 'p', {}, b.text));
      first = false;
    }
  }
  render();
  return { relabel: render };
}
