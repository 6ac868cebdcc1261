// A pipeline estimate's basis arrives as a code with figures and reads in the window's language.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../src/renderer/src/i18n';
import { estimateStepWords, stepBasisWords } from '../../../src/renderer/src/new-batch/step-basis-words';
import type { StepBasis } from '../../../src/shared/step-basis';

function speak(lng: 'en' | 'de'): void {
  const tag = lng === 'de' ? 'de-DE' : 'en-US';
  vi.stubGlobal('navigator', { language: tag, languages: [tag] });
  void i18n.changeLanguage(lng);
}

afterEach(() => {
  void i18n.changeLanguage('en');
  vi.unstubAllGlobals();
});

const fromAudio: StepBasis = { kind: 'fromStep', step: 1, units: 3600, unitName: 'audio seconds', from: 'transcribe', perUnit: 15, task: null };

describe('step basis words', () => {
  it('says every basis in English', () => {
    speak('en');
    expect(stepBasisWords({ kind: 'measured' })).toBe('measured from the input');
    expect(stepBasisWords(fromAudio)).toBe("from step 1's 3,600 audio seconds: about 15 characters of text per audio second");
    expect(stepBasisWords({ kind: 'resultsNow', now: 2, more: 3, batchId: 'b1', then: { kind: 'perItem', step: 1, unitName: 'messages' } })).toBe(
      '2 results now; 3 more may come (one message per item of step 1)',
    );
  });

  it('says every basis in German with German numbers, no English left', () => {
    speak('de');
    expect(stepBasisWords({ kind: 'measured' })).toBe('aus der Eingabe gemessen');
    const audio = stepBasisWords(fromAudio);
    expect(audio).toContain('3.600');
    expect(audio).toContain('Schritt 1');
    expect(audio).not.toMatch(/from step|measured|audio seconds/);
    expect(stepBasisWords({ kind: 'fromStep', step: 2, units: 1000, unitName: 'characters', from: 'text', perUnit: 0.2, task: 'summary' })).toContain('20 %');
    expect(stepBasisWords({ kind: 'resultsNow', now: 4, more: 0, batchId: 'b9', then: { kind: 'measured' } })).toBe('4 Ergebnisse von b9');
  });

  it('names a step by its capability and main option in the window language', () => {
    speak('de');
    expect(estimateStepWords({ capability: 'transcribe', mainOption: null })).toBe('Transkription');
    expect(estimateStepWords({ capability: 'text', mainOption: 'summary' })).toContain('Zusammenfassung');
    speak('en');
    expect(estimateStepWords({ capability: 'text', mainOption: 'summary' })).not.toContain('Zusammenfassung');
  });
});
