// The window ships in English and German: both catalogues hold the same keys and placeholders,
// German says it in German, and no component writes English text past the catalogues.
// (A t('ns:key') missing from the English catalogue does not compile: src/renderer/src/i18n/i18next.d.ts.)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');
const RENDERER = join(ROOT, 'src', 'renderer', 'src');
const LOCALES = join(RENDERER, 'i18n', 'locales');

/** Words that are the same in both languages (units, formats, product and protocol names). */
const INTERNATIONAL = new Set(
  [
    's',
    'ms',
    // A day's month as a date pattern writes it (TT.MM.JJJJ, MM/DD/YYYY).
    'mm',
    'min',
    'h',
    'd',
    'x',
    'id',
    'ok',
    'csv',
    'json',
    'pdf',
    'png',
    'jpeg',
    'srt',
    'ubl',
    'xml',
    'zip',
    'api',
    'url',
    'crm',
    'ocr',
    'tts',
    'iban',
    'vat',
    'sms',
    'eur',
    'utc',
    'batchdesk',
    'sandbox',
    'whatsapp',
    'postgresql',
    'en',
    'de',
    'status',
    'name',
    'start',
    'stop',
    'export',
    'details',
    'tier',
    'standard',
    'premium',
    'e',
    'mail',
    'e-mail',
    'token',
    'tokens',
    'pipeline',
    'filter',
    'budget',
    'job',
    'jobs',
    'batch',
    'batches',
    'idempotency',
    'key',
    'cli',
    'http',
    'https',
    'dlq',
    'en16931',
    'xrechnung',
    'zugferd',
    'dob',
    'card',
    'phone',
    'email',
    // A date's month in a pattern ("TT.MM.JJJJ").
    'mm',
  ].map((w) => w.toLowerCase()),
);

/** Brand names, written the same in every language (common:channelName.*). */
const BRANDS = new Set(['WhatsApp', 'SMS', 'Telegram', 'Signal', 'Messenger', 'Viber', 'LINE', 'WeChat', 'iMessage', 'RCS']);

/**
 * Fields the engine fills with a code, not with words (a state, a channel, a zone id, a kind):
 * shown as they come ("accepted", "whatsapp", "Europe/Berlin") they are English in a German
 * window. Such a field goes through a function that says it in the window's language.
 */
const ENGINE_CODES = new Set(['status', 'state', 'channel', 'zone', 'kind', 'errorKind', 'code', 'tier', 'capability', 'outcome', 'delivery', 'cause', 'unit']);

/** Fields with one of those names that hold no code, and why. */
const NOT_CODES = new Map<string, string>([
  ['jobs/job-note-words.ts: t(…, { status: n.status })', 'an HTTP status number'],
  ['keys/SettingsForm.tsx: t(…, { code: c.code })', 'a country code beside its name ("Austria (AT)")'],
  ['new-batch/BatchOptions.tsx: {errors.channel}', "the channel field's error sentence, already in the window's language"],
]);

/**
 * Components not yet moved to the catalogues. The list only shrinks: a listed file that has no
 * English text left fails the test, so it is taken off when it is done.
 */
const NOT_YET_TRANSLATED = new Set<string>([]);

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

function catalogue(lang: string): Map<string, Map<string, string>> {
  const dir = join(LOCALES, lang);
  const out = new Map<string, Map<string, string>>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    out.set(file.replace(/\.json$/, ''), flatten(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Tree));
  }
  return out;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|<(\d+)>/g)].map((m) => m[1] ?? `<${m[2]}>`).sort();

/** True when the text holds a word a German reader would not read as German. */
function hasTranslatableWord(text: string): boolean {
  const bare = text.replace(/\{\{[^}]*\}\}/g, ' ').replace(/<\/?\d+>/g, ' ');
  return (bare.match(/[A-Za-zÄÖÜäöüß][A-Za-zÄÖÜäöüß'-]*/g) ?? []).some((w) => !INTERNATIONAL.has(w.toLowerCase()));
}

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsxFiles(p);
    return e.name.endsWith('.tsx') ? [p] : [];
  });
}

const VISIBLE_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'aria-description', 'aria-roledescription']);

/** English text written straight into a component: JSX text, visible attributes, string children. */
function englishInComponent(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) {
      const text = node.text.replace(/\s+/g, ' ').trim();
      if (hasTranslatableWord(text)) found.push(text);
    } else if (ts.isJsxAttribute(node) && node.initializer !== undefined) {
      const name = node.name.getText(source);
      const init = node.initializer;
      const literal = ts.isStringLiteral(init)
        ? init
        : ts.isJsxExpression(init) && init.expression !== undefined && ts.isStringLiteralLike(init.expression)
          ? init.expression
          : undefined;
      if (VISIBLE_ATTRIBUTES.has(name) && literal !== undefined && hasTranslatableWord(literal.text)) found.push(`${name}="${literal.text}"`);
    } else if (
      ts.isJsxExpression(node) &&
      node.parent !== undefined &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)) &&
      node.expression !== undefined
    ) {
      const e = node.expression;
      const texts = ts.isStringLiteralLike(e) ? [e.text] : ts.isTemplateExpression(e) ? [e.head.text, ...e.templateSpans.map((s) => s.literal.text)] : [];
      for (const text of texts) if (hasTranslatableWord(text)) found.push(text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** `x.status`, `x?.zone`, `x.channel ?? '—'`: an engine code read straight from a field. */
function rawCode(e: ts.Expression): string | null {
  if (ts.isParenthesizedExpression(e)) return rawCode(e.expression);
  if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken))
    return rawCode(e.left);
  if (ts.isPropertyAccessExpression(e) && ENGINE_CODES.has(e.name.text)) return e.getText();
  return null;
}

/**
 * Engine codes shown raw: as a child of an element ({data.status}), as a part of a line put
 * together ([tier, batch.channel].join(' · ')), or handed to a sentence of the catalogue as a
 * value (t('…', { zone: n.zone })), where the reader sees it as it came.
 */
function rawCodesIn(file: string, text: string = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isJsxExpression(node) && node.expression !== undefined && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      const raw = rawCode(node.expression);
      if (raw !== null) found.push(`{${raw}}`);
    } else if (ts.isArrayLiteralExpression(node)) {
      // A line put together from parts ([tier, batch.channel, created].join(' · ')).
      for (const el of node.elements) {
        const raw = rawCode(el);
        if (raw !== null) found.push(`[${raw}]`);
      }
    } else if (ts.isCallExpression(node) && /^(t|tr|i18n\.t)$/.test(node.expression.getText())) {
      for (const arg of node.arguments.slice(1)) {
        if (!ts.isObjectLiteralExpression(arg)) continue;
        for (const prop of arg.properties) {
          if (ts.isPropertyAssignment(prop)) {
            const raw = rawCode(prop.initializer);
            if (raw !== null) found.push(`${node.expression.getText()}(…, { ${prop.name.getText()}: ${raw} })`);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the window in English and German', () => {
  const en = catalogue('en');
  const de = catalogue('de');

  it('has the same namespaces, keys and placeholders in both languages', () => {
    expect([...de.keys()]).toEqual([...en.keys()]);
    const problems: string[] = [];
    for (const [ns, enKeys] of en) {
      const deKeys = de.get(ns) ?? new Map<string, string>();
      for (const [key, text] of enKeys) {
        const german = deKeys.get(key);
        if (german === undefined) problems.push(`de/${ns}.json lacks ${key}`);
        else if (placeholders(german).join() !== placeholders(text).join())
          problems.push(`de/${ns}.json ${key}: placeholders ${placeholders(german).join()} against ${placeholders(text).join()}`);
      }
      for (const key of deKeys.keys()) if (!enKeys.has(key)) problems.push(`de/${ns}.json has ${key}, which en/${ns}.json lacks`);
    }
    expect(problems).toEqual([]);
  });

  it('says everything in German in the German catalogue', () => {
    const untranslated: string[] = [];
    for (const [ns, enKeys] of en) {
      for (const [key, text] of enKeys) {
        const german = de.get(ns)?.get(key);
        if (german !== undefined && german === text && hasTranslatableWord(text) && !BRANDS.has(text)) untranslated.push(`${ns}:${key} = "${text}"`);
      }
    }
    expect(untranslated).toEqual([]);
  });

  it('writes no English text in a component outside the catalogues', () => {
    const leaks: string[] = [];
    const stale: string[] = [];
    for (const file of tsxFiles(RENDERER)) {
      const name = relative(RENDERER, file);
      const found = englishInComponent(file);
      if (NOT_YET_TRANSLATED.has(name)) {
        if (found.length === 0) stale.push(name);
      } else {
        for (const text of found) leaks.push(`${name}: ${text}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(stale, 'translated now: take these off NOT_YET_TRANSLATED').toEqual([]);
  });

  it("shows no engine code raw (a delivery state, a channel, a zone id): each is said in the window's words", () => {
    const raw: string[] = [];
    for (const file of sourceFiles(RENDERER)) for (const code of rawCodesIn(file)) raw.push(`${relative(RENDERER, file)}: ${code}`);
    expect(raw.filter((r) => !NOT_CODES.has(r))).toEqual([]);
    expect(
      [...NOT_CODES.keys()].filter((k) => !raw.includes(k)),
      'no longer found: take these off NOT_CODES',
    ).toEqual([]);
  });

  it('finds an engine code shown raw (the check itself can fail)', () => {
    const component = [
      'export const Status = () => <dd>{data.status}</dd>;',
      "export const Channel = () => <span>{batch.channel ?? '—'}</span>;",
      "export const zone = t('jobs:note.heldUntil', { zone: n.zone });",
      "const meta = [tier, batch.channel, created].filter(Boolean).join(' · ');",
      '// Said through a function: not raw.',
      "export const said = t('jobs:note.heldUntil', { zone: zoneWords(n.zone) });",
      'export const state = <dd>{stateWord(row)}</dd>;',
    ].join('\n');
    expect(rawCodesIn('raw-codes.tsx', component)).toEqual(['{data.status}', '{batch.channel}', 't(…, { zone: n.zone })', '[batch.channel]']);
  });

  it('finds English written into a component (the check itself can fail)', () => {
    expect(hasTranslatableWord('Start the batch')).toBe(true);
    expect(hasTranslatableWord('{{n}} ms')).toBe(false);
    expect(hasTranslatableWord('Stapel starten')).toBe(true);
  });
});
