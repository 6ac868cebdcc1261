// Tier, channel (for messages), name and budget of the batch being prepared.
import { useId } from 'react';
import { TIERS, type Tier } from '../../../shared/domain';
import { useDraftStore, type ChannelChoice, type DraftRequest } from './draft-store';
import './BatchOptions.css';

const TIER_LABEL: Record<Tier, string> = { basic: 'Basic', standard: 'Standard', superior: 'Superior' };

export function BatchOptions({ defaultChannel, errors }: { defaultChannel: string; errors: DraftRequest['errors'] }) {
  const d = useDraftStore();
  const ids = { tier: useId(), name: useId(), budget: useId(), budgetHint: useId(), other: useId(), channelErr: useId(), budgetErr: useId(), voice: useId(), voiceHint: useId() };
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

      {d.capability === 'channel' ? (
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
    </div>
  );
}
