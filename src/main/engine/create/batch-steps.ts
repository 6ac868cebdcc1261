// The parts every new batch is made with: the key each step sends with, the builder of the steps
// after the first (`then`) and of follow-ups (`from`), and a follow-up's request.
import type { Db } from '../db/connection';
import type { Clock } from '../clock';
import type { Credential } from '../api/request';
import type { BatchRow, BatchStore } from '../queue/batch-store';
import type { RateBook } from '../costs/rate-book';
import type { KeyManager } from '../secrets/key-manager';
import { keyChooser, type BatchKey } from '../secrets/key-choice';
import type { PipelineStore } from '../pipeline/pipeline-store';
import { FollowUps } from '../pipeline/follow-ups';
import { StepsBuilder, type FollowUpRequest } from '../pipeline/steps-builder';
import type { CreateBatchParsed } from '../batch-input';
import { describe } from '../../../shared/capabilities/catalog';
import { optionsOf } from '../../../shared/capabilities/request-options';
import { newBatchId } from './batch-id';
import { creatorTag, importingHere } from './import-owners';

/** The key a step of kind `kind` sends with; `first`: the step the user picked the key for. */
export type ChooseKey = (kind: Credential, first: boolean) => BatchKey;

/** Which stored key each new batch sends with, and its client (secrets/key-choice.ts). */
export function batchKeyChooser(keys: KeyManager, label: string | undefined, parent: BatchRow | null | undefined): ChooseKey {
  return keyChooser({
    label,
    parent: parent ? { id: parent.key_id, client: parent.client } : null,
    keys: keys.list(),
    defaultKey: (kind) => keys.defaultKey(kind),
  });
}

/** What the steps builder writes with. */
export interface StepsSources {
  db: Db;
  clock: Clock;
  batches: BatchStore;
  pipelines: PipelineStore;
  rates: RateBook;
}

export function stepsBuilderOf(s: StepsSources, chooseKey: ChooseKey): StepsBuilder {
  return new StepsBuilder({
    batches: s.batches,
    pipelines: s.pipelines,
    followUps: new FollowUps(s.pipelines, s.rates),
    rates: s.rates,
    transaction: (fn) => s.db.transaction(fn)(),
    immediate: (fn) => s.db.transaction(fn).immediate(),
    newId: () => {
      const id = newBatchId(s.clock.now());
      importingHere(id);
      return id;
    },
    creator: creatorTag(),
    keyFor: (capability, first) => chooseKey(describe(capability).credential, first),
  });
}

/** A follow-up (`from`) as the steps builder takes it. */
export function followUpRequest(parsed: CreateBatchParsed): FollowUpRequest {
  return {
    capability: parsed.capability,
    tier: parsed.tier,
    options: optionsOf(parsed),
    name: parsed.name,
    budget: parsed.budget,
    allowResend: parsed.allowResend,
  };
}
