// "messages.csv row 3" is how the engine names a CSV's row (and "notes.txt line 2" a text file's
// line); the window, the spreadsheet export and a follow-up's name read it back with one parser.
import { describe, expect, it } from 'vitest';
import { parseRowSource } from '../../../src/shared/item-path';

describe('parseRowSource', () => {
  it('reads a row of a CSV and a line of a text file, the file name kept whole', () => {
    expect(parseRowSource('kunden november.csv row 107')).toEqual({ file: 'kunden november.csv', kind: 'row', row: '107' });
    expect(parseRowSource('/drop/notes.txt line 2')).toEqual({ file: '/drop/notes.txt', kind: 'line', row: '2' });
  });

  it('is null for a file, or anything not ending in "row N" / "line N"', () => {
    expect(parseRowSource('calls/call-001.wav')).toBeNull();
    expect(parseRowSource('messages.csv row')).toBeNull();
    expect(parseRowSource('messages.csv row 3a')).toBeNull();
    expect(parseRowSource('messages.csv column 3')).toBeNull();
  });
});
