// Which stored key a new batch sends with, and which client it is for. Chosen once, at creation:
// a batch made for a client's key keeps using it whatever the default becomes later.
import type { Credential } from '../api/request';
import type { KeyInfo } from './key-manager';
import { UserError } from '../user-error';

export interface BatchKey {
  /** `kind:label` of the stored key; null: the default key of its kind (environment, then the default stored key). */
  id: string | null;
  client: string | null;
}

/** A stored key's label from its id (`kind:label`; labels have no colon). */
export function labelOfKeyId(id: string): string {
  return id.slice(id.indexOf(':') + 1);
}

export interface KeyChoiceInput {
  /** The label the user picked (`--key`, the New batch select); undefined: none picked. */
  label: string | undefined;
  /** A follow-up's parent batch: its key and client carry over when none is picked. */
  parent: BatchKey | null;
  keys: readonly KeyInfo[];
  /**
   * The default key of a kind now, bound as if picked (a batch keeps it when the default changes,
   * so the client it is billed to is the one whose key pays); null id when the environment's key
   * overrides stored keys, or none is stored.
   */
  defaultKey: (kind: Credential) => BatchKey;
}

/** Chooses for every step of a pipeline: each step's kind may differ (a transcript, then a message). */
export function keyChooser(input: KeyChoiceInput): (kind: Credential, first: boolean) => BatchKey {
  const picked = input.label === undefined ? [] : input.keys.filter((k) => k.label === input.label);
  if (input.label !== undefined && picked.length === 0) {
    const stored = input.keys.map((k) => `${k.label} (${k.kind}${k.client ? `, ${k.client}` : ''})`).join(', ');
    throw new UserError(
      `No stored key is labelled "${input.label}". ${stored ? `Stored keys: ${stored}.` : 'No keys are stored yet.'} Add it with \`batchdesk keys add --kind api|channel --label ${input.label} --client NAME\` (in the window: Keys & rates), or pick another.`,
      { code: 'no_key_labelled', label: input.label },
    );
  }
  const base: BatchKey | null = picked.length > 0 ? null : input.parent;
  const client = picked[0]?.client ?? base?.client ?? null;
  return (kind, first) => {
    const same = picked.find((k) => k.kind === kind);
    if (same) return { id: same.id, client: same.client };
    if (picked.length > 0 && first) {
      throw new UserError(
        `The key "${input.label}" is a${picked[0]?.kind === 'api' ? 'n API' : ' channel'} key; this batch needs a${kind === 'api' ? 'n API' : ' channel'} key. Pick a ${kind} key (\`batchdesk keys list\`), or store one with \`batchdesk keys add --kind ${kind} --label NAME\`.`,
        { code: 'key_wrong_kind', label: input.label ?? '', credential: kind },
      );
    }
    if (base?.id && base.id.startsWith(`${kind}:`)) return { id: base.id, client: base.client };
    // Another kind of step: the same client's key of that kind, when there is exactly one.
    if (client !== null) {
      const theirs = input.keys.filter((k) => k.kind === kind && k.client === client);
      const only = theirs.length === 1 ? theirs[0] : undefined;
      if (only) return { id: only.id, client };
      // The default key pays: billed to its client, not to one whose key does not pay.
      return input.defaultKey(kind);
    }
    return input.defaultKey(kind);
  };
}
