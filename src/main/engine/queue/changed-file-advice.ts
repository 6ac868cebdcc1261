// What to do about an item's file that changed after it was queued (found before sending) or while
// it was being uploaded: chosen once, by where the item came from, for both stores' runners. A
// watched folder sends a new version on request (`watch resend`, in the window "Send this version
// too"); a batch's item is sent again as part of a new batch.
import { assertNever } from '../../../shared/domain';
import { shellWord } from '../shell-word';

/** Where an item's file came from: a batch made of it, or a watched folder (which sends a new version on request). */
export type SourceOrigin = 'batch' | 'watch';

/** A team's batch's origin, as its store keeps it (the watched folder it came from, moved with it). */
export function storedOrigin(row: { watch_dir?: string | null }): SourceOrigin {
  return row.watch_dir === undefined || row.watch_dir === null ? 'batch' : 'watch';
}

/** The start of a watched folder's item's advice: how its note tells the origin from the stored words. */
export const WATCH_ADVICE_WORDS = 'It came from a watched folder';

export function newVersionAdvice(path: string, origin: SourceOrigin): string {
  switch (origin) {
    case 'batch':
      return 'Create a new batch for the new version.';
    case 'watch':
      return `${WATCH_ADVICE_WORDS}: to send the new version, \`batchdesk watch resend ${shellWord(path)}\` (in the window: Watch folders, Send this version too).`;
    default:
      return assertNever(origin, 'source origin');
  }
}
