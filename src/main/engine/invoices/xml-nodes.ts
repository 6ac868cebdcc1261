// Reading a tree made by fast-xml-parser (namespace prefixes removed, attributes kept as "@name",
// every value a string): an element may be a string, an object with "#text", or an array when it
// repeats. These helpers take what the e-invoice readers need without caring which.
import { AMOUNT_SCALE } from '../../../shared/invoices/invoice';

export type XmlNode = Readonly<Record<string, unknown>>;

function isNode(v: unknown): v is XmlNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every element `key` of `node` (one or many), in document order. */
export function all(node: unknown, key: string): unknown[] {
  if (!isNode(node)) return [];
  const v = node[key];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The first element along `path` ("Party/PartyName/Name"), or undefined. */
export function at(node: unknown, path: string): unknown {
  let here: unknown = node;
  for (const key of path.split('/')) {
    here = all(here, key)[0];
    if (here === undefined) return undefined;
  }
  return here;
}

/** Child elements along `path` that are elements with children (for walking on). */
export function nodes(node: unknown, path: string): XmlNode[] {
  const keys = path.split('/');
  const last = keys.pop() ?? '';
  const parent = keys.length === 0 ? node : at(node, keys.join('/'));
  return all(parent, last).filter(isNode);
}

/** An element's text, trimmed with inner whitespace collapsed; null when absent or empty. */
export function textOf(v: unknown): string | null {
  const raw = isNode(v) ? v['#text'] : v;
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const t = String(raw).replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

export function text(node: unknown, path: string): string | null {
  return textOf(at(node, path));
}

/** An attribute of an element, or null. */
export function attr(v: unknown, name: string): string | null {
  return isNode(v) ? textOf(v[`@${name}`]) : null;
}

/**
 * An XML decimal ("1234.50", "-3", "0.125") in 1/10,000 units, rounded half away from zero past
 * the fourth place; null when it is not one. XML Schema decimals have no grouping and a dot.
 */
export function amountOf(v: unknown): number | null {
  const t = textOf(v);
  if (t === null) return null;
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(t);
  if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return null;
  const frac = (m[3] ?? '').padEnd(5, '0');
  const units = Number(m[2] || '0') * AMOUNT_SCALE + Number(frac.slice(0, 4)) + (Number(frac.charAt(4)) >= 5 ? 1 : 0);
  if (!Number.isSafeInteger(units)) return null;
  return m[1] === '-' && units !== 0 ? -units : units;
}

/** A decimal as a number (quantities, percentages), or null. */
export function numberOf(v: unknown): number | null {
  const t = textOf(v);
  if (t === null || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}
