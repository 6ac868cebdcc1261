// The subtitle writers: SubRip with commas and numbered cues, WebVTT with dots, a header and voice
// spans; hours past 99 minutes and past 99 hours; "-->" never left in cue text; cues without text
// left out; cues sorted and never zero-long. And the transcript's cues: its segments, or its whole
// text over the whole recording, and how the engine reads segments from an answer.
import { describe, expect, it } from 'vitest';
import { srtOf, srtTime, vttOf, vttTime } from '../../../src/main/engine/exporters/cue-files';
import { describe as describeCapability } from '../../../src/shared/capabilities/catalog';
import { segmentsOf, transcribe } from '../../../src/main/engine/capabilities/transcribe';
import type { FilePayload } from '../../../src/main/engine/capabilities/file-payload';
import type { ApiResponse } from '../../../src/main/engine/api/request';
import type { Cue } from '../../../src/shared/capabilities/descriptor';

const cue = (start: number, end: number, text: string, speaker: string | null = null): Cue => ({ start, end, text, speaker });

describe('times', () => {
  it.each([
    [0, '00:00:00,000', '00:00:00.000'],
    [1.5, '00:00:01,500', '00:00:01.500'],
    [59.9996, '00:01:00,000', '00:01:00.000'], // rounded to the millisecond, carried into the minute
    [61.0004, '00:01:01,000', '00:01:01.000'],
    [3599.999, '00:59:59,999', '00:59:59.999'],
    [3723.042, '01:02:03,042', '01:02:03.042'],
    [100 * 3600 + 1.25, '100:00:01,250', '100:00:01.250'],
    [-3, '00:00:00,000', '00:00:00.000'],
    [Number.NaN, '00:00:00,000', '00:00:00.000'],
  ])('%s s -> %s / %s', (s, srt, vtt) => {
    expect(srtTime(s)).toBe(srt);
    expect(vttTime(s)).toBe(vtt);
  });
});

describe('srtOf', () => {
  it('numbers cues, times with a comma, a blank line between cues, the speaker as a prefix', () => {
    expect(srtOf([cue(0, 2.5, 'Good morning, how can I help?', 'Agent'), cue(2.5, 3723.042, 'I was charged twice.', 'Customer')])).toBe(
      [
        '1',
        '00:00:00,000 --> 00:00:02,500',
        'Agent: Good morning, how can I help?',
        '',
        '2',
        '00:00:02,500 --> 01:02:03,042',
        'Customer: I was charged twice.',
        '',
      ].join('\n'),
    );
  });

  it('keeps "-->" out of the text, no blank line inside a cue, leaves out cues without text', () => {
    const out = srtOf([cue(1, 2, 'a --> b'), cue(2, 3, '   \n '), cue(3, 4, 'first line\n\n\nsecond   line\r\n'), cue(4, 5, '')]);
    expect(out).toBe(
      ['1', '00:00:01,000 --> 00:00:02,000', 'a \u2192 b', '', '2', '00:00:03,000 --> 00:00:04,000', 'first line', 'second line', ''].join('\n'),
    );
    expect(out.split('\n').filter((l) => l.includes('-->'))).toHaveLength(2); // the two timing lines only
    expect(srtOf([])).toBe('');
    expect(srtOf([cue(0, 1, '')])).toBe('');
  });

  it('writes control characters in the text or the speaker as inert escapes, in SRT and WebVTT', () => {
    const cues = [cue(0, 1, 'hi\u001b[2J\u0007 there\u009b', 'Agent\u001b]0;x')];
    for (const out of [srtOf(cues), vttOf(cues)]) {
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(out).toContain('hi\\u001b[2J\\u0007 there\\u009b');
      expect(out).toContain('Agent\\u001b]0;x');
    }
  });

  it('keeps tag-like text from being rendered as markup: <b>, <font>, {\\an8} show as written, with look-alikes', () => {
    const out = srtOf([cue(0, 1, 'press <b>1</b> or <font color="red">2</font> {\\an8}top', '<i>Agent</i>')]);
    const text = out.split('\n')[2] ?? '';
    expect(text).not.toMatch(/[<>{}]/);
    expect(text).toBe(
      '\u2039i\u203aAgent\u2039/i\u203a: press \u2039b\u203a1\u2039/b\u203a or \u2039font color="red"\u203a2\u2039/font\u203a \uff5b\\an8\uff5dtop',
    );
  });

  it('orders cues by start and gives a zero-long cue one millisecond', () => {
    expect(srtOf([cue(5, 6, 'later'), cue(1, 1, 'instant'), cue(1, 2, 'same start, after')])).toBe(
      [
        '1',
        '00:00:01,000 --> 00:00:01,001',
        'instant',
        '',
        '2',
        '00:00:01,000 --> 00:00:02,000',
        'same start, after',
        '',
        '3',
        '00:00:05,000 --> 00:00:06,000',
        'later',
        '',
      ].join('\n'),
    );
  });
});

describe('a note (a made-up transcript says so)', () => {
  const cues: Cue[] = [
    { start: 0, end: 1.5, text: 'Hello.', speaker: 'Agent' },
    { start: 1.5, end: 3, text: 'Hi.', speaker: null },
  ];
  it('is the first line of the first cue in SRT, which has no comments', () => {
    expect(srtOf(cues, 'Made up <here>')).toBe(
      '1\n00:00:00,000 --> 00:00:01,500\n[Made up \u2039here\u203a]\nAgent: Hello.\n\n2\n00:00:01,500 --> 00:00:03,000\nHi.\n',
    );
  });
  it('is a NOTE block after the header in WebVTT, never holding "-->"', () => {
    expect(vttOf(cues, 'Made up --> here')).toBe(
      'WEBVTT\n\nNOTE Made up \u2192 here\n\n00:00:00.000 --> 00:00:01.500\n<v Agent>Hello.</v>\n\n00:00:01.500 --> 00:00:03.000\nHi.\n',
    );
  });
});

describe('vttOf', () => {
  it('a WEBVTT header, times with a dot, the speaker as a voice span', () => {
    expect(vttOf([cue(0, 2.5, 'Good morning.', 'Agent'), cue(2.5, 3723.042, 'Hi.')])).toBe(
      ['WEBVTT', '', '00:00:00.000 --> 00:00:02.500', '<v Agent>Good morning.</v>', '', '00:00:02.500 --> 01:02:03.042', 'Hi.', ''].join('\n'),
    );
  });

  it('escapes &, < and > (so "-->" is "--&gt;"), also in the voice; no cue without text', () => {
    expect(vttOf([cue(0, 1, 'a --> b & <i>c</i>', 'R&D <team>'), cue(1, 2, '\n\n')])).toBe(
      ['WEBVTT', '', '00:00:00.000 --> 00:00:01.000', '<v R&amp;D &lt;team&gt;>a --&gt; b &amp; &lt;i&gt;c&lt;/i&gt;</v>', ''].join('\n'),
    );
    expect(vttOf([])).toBe('WEBVTT\n');
  });

  it('multi-line text stays one cue: its lines, no blank line', () => {
    expect(vttOf([cue(10, 12, 'one\n\ntwo', 'Customer')])).toBe(['WEBVTT', '', '00:00:10.000 --> 00:00:12.000', '<v Customer>one', 'two</v>', ''].join('\n'));
  });
});

describe('transcript cues', () => {
  const cues = describeCapability('transcribe').cues;

  it('are the segments, or the whole text over the whole recording', () => {
    expect(cues).toBeDefined();
    const segments = [
      { start: 0, end: 1.2, text: 'Hello.', speaker: 'Agent' },
      { start: 1.2, end: 3, text: 'Hi.' },
    ];
    expect(cues?.({ text: 'Hello. Hi.', language: 'en', duration_seconds: 3, segments }, 3)).toEqual([cue(0, 1.2, 'Hello.', 'Agent'), cue(1.2, 3, 'Hi.')]);
    expect(cues?.({ text: 'Hello. Hi.', language: 'en', duration_seconds: 3.25 }, 4)).toEqual([cue(0, 3.25, 'Hello. Hi.')]);
    // The API did not say how long: the measured audio seconds.
    expect(cues?.({ text: 'Hello.', language: null, duration_seconds: null }, 4)).toEqual([cue(0, 4, 'Hello.')]);
    expect(cues?.({ nothing: true }, 4)).toBeNull();
    expect(describeCapability('ocr').cues).toBeUndefined();
  });

  it('the engine keeps well-formed segments and drops a list with a bad one (the text stays)', () => {
    expect(
      segmentsOf([
        { start: 0, end: 1, text: 'a', speaker: 'Agent' },
        { start: 1, end: 1, text: 'b', speaker: '' },
      ]),
    ).toEqual([
      { start: 0, end: 1, text: 'a', speaker: 'Agent' },
      { start: 1, end: 1, text: 'b' },
    ]);
    expect(segmentsOf(undefined)).toBeUndefined();
    expect(segmentsOf([])).toBeUndefined();
    expect(segmentsOf([{ start: 2, end: 1, text: 'ends before it starts' }])).toBeUndefined();
    expect(segmentsOf([{ start: '0', end: 1, text: 'a string' }])).toBeUndefined();
    expect(segmentsOf([{ start: -1, end: 1, text: 'negative' }])).toBeUndefined();
    expect(segmentsOf([{ start: 0, end: 1 }])).toBeUndefined();
    expect(segmentsOf({ start: 0, end: 1, text: 'not a list' })).toBeUndefined();
  });

  it('an answer keeps its segments in the result; one without them, or with bad ones, is text only', () => {
    const answer = (body: unknown): ApiResponse => {
      const b = Buffer.from(JSON.stringify(body));
      return {
        status: 200,
        headers: new Headers({ 'content-type': 'application/json' }),
        body: b,
        bodyBytes: b.length,
        truncated: false,
        latencyMs: 1,
        uploadedSha256: null,
      } as ApiResponse;
    };
    const payload = { unitsExact: true } as FilePayload;
    const ctx = { tier: 'standard' as const, channel: null, options: {} };
    const segments = [{ start: 0, end: 1.5, text: 'Hello.', speaker: 'Agent' }];
    expect(transcribe.parseResponse(answer({ text: 'Hello.', language: 'en', duration_seconds: 1.5, segments }), payload, 2, ctx)).toEqual({
      ok: true,
      result: { text: 'Hello.', language: 'en', duration_seconds: 1.5, segments },
      units: 2,
    });
    expect(transcribe.parseResponse(answer({ text: 'Hello.' }), payload, 2, ctx)).toEqual({
      ok: true,
      result: { text: 'Hello.', language: null, duration_seconds: null },
      units: 2,
    });
    expect(transcribe.parseResponse(answer({ text: 'Hello.', segments: [{ start: 3, end: 1, text: 'x' }] }), payload, 2, ctx)).toEqual({
      ok: true,
      result: { text: 'Hello.', language: null, duration_seconds: null },
      units: 2,
    });
  });
});
