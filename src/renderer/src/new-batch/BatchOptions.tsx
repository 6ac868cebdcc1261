// Tier, channel (for messages), name and budget of the batch being prepared.
import { TIER_LABEL } from '../format/labels';
import { KeyChoice } from './KeyChoice';
import { useId } from 'react';
import { TIERS, type Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { CRM_RECORDS, TEXT_TASKS, type CrmRecordKind, type TextTask } from '../../../shared/capabilities/options';
import { useDraftStore, type ChannelChoice, type DraftRequest } from './draft-store';
import './BatchOptions.css';

const TASK_LABEL: Record<TextTask, string> = { summary: 'Summarise', reply: 'Draft a reply', classify: 'Classify with labels', extract: 'Extract details' };
const RECORD_LABEL: Record<CrmRecordKind, string> = { contact: 'Contact', conversation: 'Conversation', event: 'Event' };

/** A free-text option with its hint, which turns into the error when the value is not valid. */
function TextOption(p: { label: string; value: string; placeholder: string; hint: string; error: string | undefined; onChange(v: string): void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{p.label}</label>
      <input
        id={id}
        type="text"
        value={p.value}
        placeholder={p.placeholder}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => p.onChange(e.target.value)}
      />
      <span id={`${id}-hint`} className={p.error ? 'field-error' : 'field-hint'}>
        {p.error ?? p.hint}
      </span>
    </div>
  );
}

/** A closed choice, as a select. */
function ChoiceOption<T extends string>(p: { label: string; value: T; choices: readonly T[]; names: Record<T, string>; onChange(v: T): void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{p.label}</label>
      <select id={id} value={p.value} onChange={(e) => p.onChange(p.choices.find((c) => c === e.target.value) ?? p.value)}>
        {p.choices.map((c) => (
          <option key={c} value={c}>
            {p.names[c]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The options of text, tts, image and crm batches (channel options are in the channel fieldset). */
function CapabilityOptions({ errors }: { errors: DraftRequest['errors'] }) {
  const d = useDraftStore();
  const desc = describe(d.capability);
  const takes = desc.options;
  const instructionsId = useId();
  return (
    <>
      {takes.includes('voice') && !takes.includes('channel') ? (
        <TextOption
          label="Voice (optional)"
          value={d.voice}
          placeholder={`default: ${desc.defaults?.voice ?? "the API's default"}`}
          hint='A voice name from the panel; a "voice" column in the CSV wins for its row.'
          error={errors.voice}
          onChange={(voice) => d.set({ voice })}
        />
      ) : null}
      {takes.includes('task') ? <ChoiceOption label="Task" value={d.task} choices={TEXT_TASKS} names={TASK_LABEL} onChange={(task) => d.set({ task })} /> : null}
      {takes.includes('labels') && d.task === 'classify' ? (
        <TextOption
          label="Labels"
          value={d.labelsText}
          placeholder="billing, delivery, support"
          hint="Separated by commas; each item gets one of them."
          error={errors.labels}
          onChange={(labelsText) => d.set({ labelsText })}
        />
      ) : null}
      {takes.includes('instructions') ? (
        <div className="field">
          <label htmlFor={instructionsId}>Instructions (optional)</label>
          <textarea
            id={instructionsId}
            rows={2}
            value={d.instructions}
            maxLength={4000}
            aria-invalid={errors.instructions ? true : undefined}
            onChange={(e) => d.set({ instructions: e.target.value })}
          />
          {errors.instructions ? <span className="field-error">{errors.instructions}</span> : null}
        </div>
      ) : null}
      {takes.includes('size') ? (
        <TextOption
          label="Size (optional)"
          value={d.size}
          placeholder={`default ${desc.defaults?.size ?? '512x512'}`}
          hint="Width x height in pixels, 16 to 1024 a side, e.g. 512x512."
          error={errors.size}
          onChange={(size) => d.set({ size })}
        />
      ) : null}
      {takes.includes('record') ? <ChoiceOption label="Record" value={d.record} choices={CRM_RECORDS} names={RECORD_LABEL} onChange={(record) => d.set({ record })} /> : null}
    </>
  );
}

/** Start later: the batch waits, then starts by itself (its time can be changed or removed from its card). */
function StartAt({ errors }: { errors: DraftRequest['errors'] }) {
  const d = useDraftStore();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Start at (optional)</label>
      <input
        id={id}
        type="datetime-local"
        value={d.atText}
        aria-invalid={errors.at ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => d.set({ atText: e.target.value })}
      />
      <span id={`${id}-hint`} className={errors.at ? 'field-error' : 'field-hint'}>
        {errors.at ?? "This computer's time. Nothing is sent before; Batchdesk starts it then if it is running (or when it next starts). Empty: start now."}
      </span>
    </div>
  );
}

/** Message batches: quiet hours where the recipient is, and the least time between two messages to one person. */
function MessageTiming({ errors }: { errors: DraftRequest['errors'] }) {
  const d = useDraftStore();
  return (
    <>
      <TextOption
        label="Quiet hours (optional)"
        value={d.quietHoursText}
        placeholder="e.g. 21:00-08:00"
        hint="No message during these hours of the recipient's local time: a timezone column in the CSV, else the phone number's country (a country with several zones: daytime in all of them), else this computer's zone. Held messages wait and show when they go."
        error={errors.quietHours}
        onChange={(quietHoursText) => d.set({ quietHoursText })}
      />
      <TextOption
        label="Gap per recipient (optional)"
        value={d.gapText}
        placeholder="e.g. 10m, 2h, 1d"
        hint="Never two messages to the same person within this time, across every batch."
        error={errors.gap}
        onChange={(gapText) => d.set({ gapText })}
      />
    </>
  );
}

export function BatchOptions({ defaultChannel, errors }: { defaultChannel: string; errors: DraftRequest['errors'] }) {
  const d = useDraftStore();
  const ids = { tier: useId(), name: useId(), budget: useId(), budgetHint: useId(), other: useId(), channelErr: useId(), budgetErr: useId(), voice: useId(), voiceHint: useId(), sample: useId(), sampleHint: useId(), sampleErr: useId() };
  const channels: { value: ChannelChoice; label: string }[] = [
    { value: 'default', label: `${defaultChannel} (messaging app)` },
    { value: 'voice', label: 'Voice call' },
    { value: 'email', label: 'Email' },
    { value: 'other', label: 'Another messaging app' },
  ];
  return (
    <div className="batch-options">
      <div className="field">
        <label htmlFor={ids.tier}>Tier</label>
        <select id={ids.tier} value={d.tier} onChange={(e) => d.set({ tier: e.target.value as Tier })}>
          {TIERS.map((t) => (
            <option key={t} value={t}>
              {TIER_LABEL[t]}
            </option>
          ))}
        </select>
      </div>

      <CapabilityOptions errors={errors} />

      {describe(d.capability).options.includes('channel') ? (
        <fieldset className="batch-options__channel">
          <legend>Channel</legend>
          {channels.map((c) => (
            <label key={c.value} className="batch-options__radio">
              <input type="radio" name="channel" value={c.value} checked={d.channelChoice === c.value} onChange={() => d.set({ channelChoice: c.value })} />
              {c.label}
            </label>
          ))}
          {d.channelChoice === 'other' ? (
            <div className="field">
              <label htmlFor={ids.other}>Messaging app name</label>
              <input
                id={ids.other}
                type="text"
                value={d.otherChannel}
                placeholder="e.g. telegram"
                aria-invalid={errors.channel ? true : undefined}
                aria-describedby={errors.channel ? ids.channelErr : undefined}
                onChange={(e) => d.set({ otherChannel: e.target.value })}
              />
            </div>
          ) : null}
          {d.channelChoice === 'voice' ? (
            <div className="field">
              <label htmlFor={ids.voice}>Voice (optional)</label>
              <input
                id={ids.voice}
                type="text"
                value={d.voice}
                placeholder="the API's default voice"
                aria-invalid={errors.voice ? true : undefined}
                aria-describedby={ids.voiceHint}
                onChange={(e) => d.set({ voice: e.target.value })}
              />
              <span id={ids.voiceHint} className={errors.voice ? 'field-error' : 'field-hint'}>
                {errors.voice ?? 'A voice name from the list published in the panel.'}
              </span>
            </div>
          ) : null}
          {errors.channel && d.channelChoice === 'other' ? (
            <span id={ids.channelErr} className="field-error">
              {errors.channel}
            </span>
          ) : null}
        </fieldset>
      ) : null}

      <KeyChoice />

      <div className="field">
        <label htmlFor={ids.name}>Name (optional)</label>
        <input id={ids.name} type="text" value={d.name} maxLength={200} onChange={(e) => d.set({ name: e.target.value })} />
      </div>

      <div className="field">
        <label htmlFor={ids.budget}>Budget in EUR (optional)</label>
        <input
          id={ids.budget}
          type="text"
          inputMode="decimal"
          value={d.budgetText}
          placeholder="no budget"
          aria-invalid={errors.budget ? true : undefined}
          aria-describedby={errors.budget ? `${ids.budgetHint} ${ids.budgetErr}` : ids.budgetHint}
          onChange={(e) => d.set({ budgetText: e.target.value })}
        />
        <span id={ids.budgetHint} className="field-hint">
          The batch pauses before an item would cross it.
        </span>
        {errors.budget ? (
          <span id={ids.budgetErr} className="field-error">
            {errors.budget}
          </span>
        ) : null}
      </div>

      <StartAt errors={errors} />
      {d.capability === 'channel' ? <MessageTiming errors={errors} /> : null}

      {d.from === null ? (
        <div className="field">
          <label htmlFor={ids.sample}>Send a sample first (optional)</label>
          <input
            id={ids.sample}
            type="text"
            inputMode="numeric"
            value={d.sampleText}
            placeholder="all at once"
            aria-invalid={errors.sample ? true : undefined}
            aria-describedby={errors.sample ? `${ids.sampleHint} ${ids.sampleErr}` : ids.sampleHint}
            onChange={(e) => d.set({ sampleText: e.target.value })}
          />
          <span id={ids.sampleHint} className="field-hint">
            This many items, chosen across the input, go first; then the batch pauses with their cost per item and the projected total. Resume sends the rest.
          </span>
          {errors.sample ? (
            <span id={ids.sampleErr} className="field-error">
              {errors.sample}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
