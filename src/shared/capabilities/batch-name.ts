// A new batch's name when the user gives none: what they dropped and how many of what it holds,
// as they would say it ("Calls 26 Nov (300 recordings)", "messages.csv (200 messages)",
// "Invoices Oct (213 scans)"), not the capability and a path. Shared: the engine names the batch
// (every face's create), and a screen may show the name before it is made.
import type { BatchCapability } from '../domain';
import { channelKindOf } from '../channel-kind';
import { escapeControls } from '../control-characters';
import { assertNever } from '../domain';

/** The longest a dropped name is kept in a batch's name (a name is at most 200 characters). */
const MAX_WHAT = 120;

/** What one item of the capability is, singular and plural ("recording", "recordings"). */
export function itemNoun(capability: BatchCapability, channel: string | null): [string, string] {
  switch (capability) {
    case 'transcribe':
      return ['recording', 'recordings'];
    case 'ocr':
      return ['scan', 'scans'];
    case 'channel': {
      const kind = channelKindOf(channel ?? '');
      return kind === 'voice' ? ['call', 'calls'] : kind === 'email' ? ['e-mail', 'e-mails'] : ['message', 'messages'];
    }
    case 'tts':
    case 'text':
    case 'embeddings':
      return ['text', 'texts'];
    case 'image':
      return ['prompt', 'prompts'];
    case 'crm':
      return ['record', 'records'];
    default:
      return assertNever(capability, 'capability');
  }
}

/** The last name of a path as the user dropped it ("/home/me/Calls 26 Nov/" -> "Calls 26 Nov"), either separator. */
export function droppedName(path: string): string {
  const parts = path.split(/[\\/]+/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

/** "Calls 26 Nov (300 recordings)"; several paths: "a.csv and 2 more (600 messages)". */
export function defaultBatchName(input: { capability: BatchCapability; channel: string | null; paths: readonly string[]; count: number }): string {
  const first = input.paths[0];
  const [one, many] = itemNoun(input.capability, input.channel);
  const count = `${input.count.toLocaleString('en')} ${input.count === 1 ? one : many}`;
  if (first === undefined) return `${count[0]?.toUpperCase() ?? ''}${count.slice(1)}`;
  // A name on Linux may hold ESC or a CR: made inert, like every name from outside.
  let what = escapeControls(droppedName(first)).trim() || first;
  if (what.length > MAX_WHAT) what = `${what.slice(0, MAX_WHAT - 1)}…`;
  const more = input.paths.length > 1 ? ` and ${input.paths.length - 1} more` : '';
  return `${what}${more} (${count})`;
}
