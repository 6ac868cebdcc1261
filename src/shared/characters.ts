// Characters as a reader counts them (code points): the unit of text-based rates (A11), counted
// the same way by Batchdesk's estimate and by the sandbox's meter.
export function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
