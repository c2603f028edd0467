// Language choice and lookup. The language comes from localStorage, else navigator.languages, else English;
// `t(key, params)` fills {name} placeholders. Numbers in clocks and scores use the language's digits.
import en from './en.js';
import bn from './bn.js';
import mr from './mr.js';
import { localDigits } from '../clock.js';

export const LANGS = { en, bn, mr };
export const LANG_CODES = Object.keys(LANGS);
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

/** A name isolated in text (FSI…PDI, as `<bdi>`); t() isolates each {name}. */
export function isolate(name) {
  const s = String(name);
  return s.startsWith('\u2068') && s.endsWith('\u2069') ? s : '\u2068' + s + '\u2069';
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

/** Switch language and remember it. */
export function setLanguage(code, storage) {
  if (!LANG_CODES.includes(code)) return;
  current = code;
  try { if (storage) storage.setItem(STORE_KEY, code); } catch { /* private mode: not remembered */ }
  for (const f of listeners) f(code);
}

export function language() {
  return current;
}

export function onLanguage(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** The string for a key in the current language (English if missing, the key itself as a last resort). */
export function t(key, params) {
  const s = LANGS[current][key] ?? en[key];
  const p = params && 'name' in params ? { ...params, name: isolate(params.name) } : params;
  return s === undefined ? key : fill(s, p);
}

/** Digits in the current language's script (clocks, counts, scores; never board coordinates or notation). */
export function num(text) {
  return localDigits(text, current);
}
