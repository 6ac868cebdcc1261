// A place in a text, [start, end) in UTF-16 code units as JavaScript counts them. Findings carry
// only this and their kind, never the value found.

export interface Span {
  readonly start: number;
  readonly end: number;
}
