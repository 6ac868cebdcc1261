import { randomBytes } from 'node:crypto';

/** Sortable, short enough to type: time prefix plus randomness. */
export function newBatchId(now: number): string {
  return `b${now.toString(36)}${randomBytes(3).toString('hex')}`;
}
