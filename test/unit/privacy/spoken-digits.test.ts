import { describe, expect, it } from 'vitest';
import { withSpokenDigits } from '../../../src/main/engine/privacy/spoken-digits';

describe('spoken digits', () => {
  it.each([
    ['four one one one', '4111'],
    ['Four, one. One - one', '4 1 11'],
    ['double five triple oh', '55000'],
    ['zwo null acht fünf fuenf', '20855'],
    ['plus four nine', '+49'],
    ['call 0151 two three', 'call 0151 23'],
    ['one of them said oh no', 'one of them said oh no'],
    ['four one one, and then two', '411, and then two'],
    ['double trouble', 'double trouble'],
    ['4111 one', '4111 1'],
  ])('"%s" reads "%s"', (text, expected) => {
    expect(withSpokenDigits(text).text).toBe(expected);
  });

  it('maps a span of the digits back to the words they were', () => {
    const text = 'my card is four one, double five and more';
    const d = withSpokenDigits(text);
    expect(d.text).toBe('my card is 41 55 and more');
    const at = d.text.indexOf('41 55');
    const back = d.original(at, at + '41 55'.length);
    expect(text.slice(back.start, back.end)).toBe('four one, double five');
    const one = d.original(at + 1, at + 2);
    expect(text.slice(one.start, one.end)).toBe('one');
    const rest = d.original(d.text.indexOf('more'), d.text.length);
    expect(text.slice(rest.start, rest.end)).toBe('more');
  });

  it('leaves a text without spoken digits as it is, places and all', () => {
    const text = 'nothing to see, 4111 here';
    const d = withSpokenDigits(text);
    expect(d.text).toBe(text);
    expect(d.original(3, 7)).toEqual({ start: 3, end: 7 });
  });
});
