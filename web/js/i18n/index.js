// Language choice and lookup. The language comes from localStorage, else navigator.languages, else English;
// `t(key, params)` fills {name} placeholders. Numbers in clocks and scores use the language's digits. Only the
// language in use is loaded (each file holds every string; a test keeps them complete).
import { localDigits } from '../table-model.js';

/** Each language by its own name, for the language menu. */
export const LANG_NAMES = { en: 'English', bn: 'বাংলা', mr: 'मराठी' };
export const LANG_CODES = Object.keys(LANG_NAMES);
const tables = {};

/** Load a language's strings (once); resolves when t() can use them. */
export async function loadLanguage(code) {
  if (!tables[code]) tables[code] = (await import(`./${code}.js`)).default;
  return tables[code];
}
const STORE_KEY = 'parlor.lang';

/** The best of our languages for a list of browser language tags ('bn-IN', 'mr', 'en-GB' ...). */
export function pickLanguage(tags) {
  for (const tag of tags || []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANG_CODES.includes(base)) return base;
  }
  return 'en';
}

/** Fill {name} placeholders of a template. */
export function fill(template, params) {
  return String(template).replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

/** A name isolated in text (FSI…PDI, as `<bdi>`), as the page's language shows it; t() isolates each {name}. */
export function isolate(name) {
  const s = String(name);
  return s.startsWith('\u2068') && s.endsWith('\u2069') ? s : '\u2068' + displayName(s) + '\u2069';
}

const GUEST = /^Guest-([0-9A-F]{4})$/i;

/** A name as shown: the name the server gives a new player (`Guest-` and four hexadecimal digits, unique per
 * player) reads in the page's language and digits, its tag as a number (`Guest-822C` is "Guest 33324", "অতিথি
 * ৩৩৩২৪", "पाहुणे ३३३२४"), so it stays unique; a name a player chose is shown as it is. */
export function displayName(name) {
  const m = GUEST.exec(String(name));
  const s = m && (tables[current] || {})['guest.name'];
  return s ? fill(s, { n: num(String(parseInt(m[1], 16))) }) : String(name);
}

let current = 'en';
const listeners = new Set();

/** Start with the stored language or the browser's. */
export function initLanguage(storage, navigatorLanguages) {
  let stored = null;
  try { stored = storage && storage.getItem(STORE_KEY); } catch { stored = null; }
  current = LANG_CODES.includes(stored) ? stored : pickLanguage(navigatorLanguages);
  return current;
}

/** Switch language and remember it; resolves once the page has been told (after the strings loaded). */
export async function setLanguage(code, storage) {
  if (!LANG_CODES.includes(code)) return;
  try { if (storage) storage.setItem(STORE_KEY, code); } catch { /* private mode: not remembered */ }
  await loadLanguage(code);
  current = code;
  for (const f of listeners) f(code);
}

export function language() {
  return current;
}

export function onLanguage(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** The string for a key in the current language (the key itself until the language has loaded). */
export function t(key, params) {
  const s = (tables[current] || {})[key];
  const p = params && 'name' in params ? { ...params, name: isolate(params.name) } : params;
  return s === undefined ? key : fill(s, p);
}

/** Digits in the current language's script (clocks, counts, scores; never board coordinates or notation). */
export function num(text) {
  return localDigits(text, current);
}
