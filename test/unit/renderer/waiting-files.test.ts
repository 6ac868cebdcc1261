// A watched folder's files not taken yet, as the hot-folder screen lists them: a count, and each
// file by its name in the folder with why, in English and German; an old row without a code is
// shown as stored; nothing at all when no file waits.
import { beforeAll, describe, expect, it } from 'vitest';
import { inLanguage } from './in-language';
import type { WatchView } from '../../../src/shared/contract';

// The component and React are loaded at run time: the Node-side type check (tsconfig.node.json)
// has no JSX, so the test sees them through the small shapes below (as icons.test.ts does).
const MODULE = '../../../src/renderer/src/watch/WaitingFiles';
const REACT = 'react';
const REACT_SERVER = 'react-dom/server';
let render: (files: WatchView['waiting']) => string;

beforeAll(async () => {
  const m = (await import(MODULE)) as { WaitingFiles: unknown };
  const react = (await import(REACT)) as { createElement: (type: unknown, props: object) => unknown };
  const server = (await import(REACT_SERVER)) as { renderToStaticMarkup: (el: unknown) => string };
  render = (files) => server.renderToStaticMarkup(react.createElement(m.WaitingFiles, { files, dir: '/scans' }));
});

const file = (path: string, note: WatchView['waiting'][number]['note'], message = `${path} is not taken yet`) => ({
  path,
  note,
  message,
  at: '2026-11-30T08:00:00.000Z',
  batch: null,
  seq: null,
});

const text = (html: string): string =>
  html
    .replace(/<svg.*?<\/svg>/g, '')
    .replace(/<\/li>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&');

describe('files not taken yet on the hot-folder screen', () => {
  const files = [
    file('/scans/2026-11/scan.pdf', { code: 'incomplete', why: { code: 'pdf_no_eof' } }),
    file('/scans/call.wav', { code: 'incomplete', why: { code: 'open_for_writing', program: 'arecord', pid: 4242 } }),
    file('/scans/old.pdf', null, '/scans/old.pdf is not taken yet: stored before codes.'),
  ];

  it('names each file in the folder with why, in English', () => {
    const html = inLanguage('en', 'en-GB', () => render(files));
    expect(html).toContain('data-testid="watch-waiting"');
    const lines = text(html).trim().split('\n');
    expect(lines[0]).toMatch(/^3 files not taken yet2026-11\/scan\.pdf is not taken yet: its PDF has no end marker yet/);
    expect(lines[1]).toMatch(/^call\.wav is not taken yet: .*arecord.*4242.*It is taken once that program closes it\.$/);
    expect(lines[2]).toBe('/scans/old.pdf is not taken yet: stored before codes.');
    expect(html).toContain('<li><span lang="en">/scans/old.pdf');
  });

  it('says it in German', () => {
    const lines = text(inLanguage('de', 'de-DE', () => render(files.slice(0, 2))))
      .trim()
      .split('\n');
    expect(lines[0]).toMatch(/^2 Dateien noch nicht übernommen2026-11\/scan\.pdf wird noch nicht übernommen: ihrem PDF fehlt noch die Endmarke/);
    expect(lines[1]).toMatch(/^call\.wav wird noch nicht übernommen: .*arecord.*4242.*sobald dieses Programm sie schließt\.$/);
    expect(text(inLanguage('de', 'de-DE', () => render(files.slice(0, 1))))).toMatch(/^ 1 Datei noch nicht übernommen/);
  });

  it('shows nothing when no file waits', () => {
    expect(render([])).toBe('');
  });
});
