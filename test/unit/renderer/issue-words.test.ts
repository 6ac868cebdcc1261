// A field a schema refused reaches the window as a code (shared/request-issue.ts) and is said in
// the window's language, naming the field by its label, never zod's English ("Too small: expected
// ..."): the engine's refusal of a request, and the window's own step check.
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { inLanguage } from './in-language';
import { BatchRequest, CompareRequest, WatchAdd } from '../../../src/shared/contract-requests';
import { SettingsPatch } from '../../../src/shared/contract-calls';
import { PipelineStep } from '../../../src/shared/capabilities/steps';
import { ISSUE_CAUSES, requestIssue, type RequestIssue } from '../../../src/shared/request-issue';
import { classifyFailure } from '../../../src/main/engine/failures';
import { fieldLabel, issueWords } from '../../../src/renderer/src/format/issue-words';
import { refusalWords } from '../../../src/renderer/src/components/refusal-words';
import { draftSteps } from '../../../src/renderer/src/new-batch/draft-steps';

const ZOD_ENGLISH = /Too (small|big)|Invalid (input|option|string|type)|expected|Unrecognized key|received/;

/** The engine's refusal of `arg` by `schema`, as the window says it. */
function refused(schema: { parse(v: unknown): unknown }, arg: unknown, lng: 'en' | 'de'): string {
  let error: unknown;
  try {
    schema.parse(arg);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ZodError);
  const f = classifyFailure(error);
  expect(f.refusal?.code).toBe('request_invalid');
  return inLanguage(lng, lng === 'de' ? 'de-DE' : 'en-GB', () => refusalWords(f.refusal!));
}

describe('a refused field in the window', () => {
  it("says the engine's refusal of a request by code, naming the field, in German", () => {
    const long = refused(BatchRequest, { capability: 'text', paths: ['/a.txt'], name: 'x'.repeat(201) }, 'de');
    expect(long).toBe('„Bezeichnung“ ist zu lang: höchstens 200 Zeichen. Kürzen Sie es und versuchen Sie es erneut.');
    const type = refused(BatchRequest, { capability: 'text', paths: ['/a.txt'], allowResend: 'ja' }, 'de');
    expect(type).toMatch(/^„Bereits gesendete Elemente einschließen“ fehlt/);
    expect(refused(BatchRequest, { capability: 'fax', paths: ['/a.txt'] }, 'de')).toMatch(/^„Fähigkeit“ ist keine seiner Auswahlmöglichkeiten/);
    expect(refused(BatchRequest, { capability: 'text', paths: ['/a.txt'], colour: 'red' }, 'de')).toMatch(/kennt \(„colour“\)/);
    // An option record's rule, said by the record's own words.
    expect(refused(BatchRequest, { capability: 'text', paths: ['/a.txt'], budget: 0 }, 'de')).toMatch(
      /^„Budget[^“]*“: Ein Budget ist ein Betrag in EUR über 0/,
    );
    // A step of a pipeline is named by its number.
    expect(refused(BatchRequest, { capability: 'transcribe', paths: ['/a.wav'], then: [{ capability: 'text', task: 'poem' }] }, 'de')).toMatch(/^Schritt 2: /);
    expect(refused(SettingsPatch, { concurrency: 900 }, 'de')).toMatch(/^„Gleichzeitige Anfragen“/);
    expect(refused(CompareRequest, { batchId: 'b-1', tiers: ['basic'], sample: 5 }, 'de')).toMatch(/^„Stufen“/);
    expect(refused(WatchAdd, { dir: '/in', capability: 'ocr', extensions: ['.PDF'] }, 'de')).toMatch(/^„Nur diese Dateiendungen“/);
    for (const lng of ['en', 'de'] as const) {
      const said = refused(BatchRequest, { capability: 'text', paths: ['/a.txt'], name: '' }, lng);
      expect(said).not.toMatch(ZOD_ENGLISH);
    }
    expect(refused(BatchRequest, { capability: 'text', paths: ['/a.txt'], name: 'x'.repeat(201) }, 'en')).toBe(
      '“Name” is too long: at most 200 characters. Shorten it and try again.',
    );
  });

  it('has a label for every field of the requests the window sends, in both languages', () => {
    const shapes = [BatchRequest.shape, WatchAdd.shape, CompareRequest.shape, SettingsPatch.shape, PipelineStep.shape];
    const missing: string[] = [];
    for (const field of new Set(shapes.flatMap((s) => Object.keys(s))))
      for (const lng of ['en', 'de'] as const) if (inLanguage(lng, lng, () => fieldLabel(field)) === field) missing.push(`${lng}: ${field}`);
    expect(missing).toEqual([]);
  });

  it('says every cause in both languages, each its own sentence', () => {
    for (const lng of ['en', 'de'] as const) {
      const said = new Set<string>();
      for (const cause of ISSUE_CAUSES) {
        const issue: RequestIssue = { field: 'name', path: ['name'], cause, limit: 3, exclusive: false, rule: cause === 'rule' ? 'task' : null };
        const words = inLanguage(lng, lng, () => issueWords(issue));
        expect(words, `${lng} ${cause}`).not.toMatch(/\{\{|common:|issue\./);
        said.add(words);
      }
      expect(said.size).toBe(ISSUE_CAUSES.length);
    }
    expect(requestIssue(undefined).field).toBe('');
    expect(inLanguage('de', 'de-DE', () => issueWords(undefined))).toMatch(/^Die Engine hat diese Anfrage/);
  });

  it("says a step's refused option in the window's words, and names each step in the window's language", () => {
    const bad = inLanguage('de', 'de-DE', () => draftSteps('transcribe', [{ capability: 'image', option: 'gross' }]));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.n).toBe(2);
      expect(bad.problem).not.toMatch(ZOD_ENGLISH);
      expect(bad.problem).not.toMatch(/WIDTHxHEIGHT|cannot/);
    }
    const good = inLanguage('de', 'de-DE', () => draftSteps('transcribe', [{ capability: 'text', option: 'summary' }]));
    expect(good).toEqual({ ok: true, steps: [{ capability: 'text', task: 'summary', stepName: 'Texte (Zusammenfassung)' }] });
  });
});
