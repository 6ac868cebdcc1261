// Tier, channel (for messages), the capability's options, name, budget, start time, message
// timing and sample of the batch being prepared. The option fields come from their records
// (shared/capabilities/options.ts): label, hint, choices; a rule's sentence shows under its field.
import { TIER_LABEL } from '../format/labels';
import { KeyChoice } from './KeyChoice';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldWords } from '../format/option-words';
import { TIERS, type Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import type { PhoneCountry } from '../../../shared/phone-country';
import { hrefFor } from '../routing/route';
import {
  readSetting,
  BATCH_SETTINGS,
  CAPABILITY_OPTIONS,
  type CapabilityOption,
  type OptionName,
  type SettingName,
} from '../../../shared/capabilities/options';
import { optionsInPlay, optionText, settingApplies, useDraftStore, type ChannelChoice, type DraftRequest } from './draft-store';
import { RecordField } from '../components/RecordField';
import { DateTimeFields } from '../components/DateTimeFields';
import { channelWords } from '../format/channel-words';
import './BatchOptions.css';

/** The capability's options in play (the channel and a call's voice are in the channel fieldset). */
function CapabilityOptions({ errors, defaultChannel }: { errors: DraftRequest['errors']; defaultChannel: string }) {
  const d = useDraftStore();
  const { t } = useTranslation('newBatch');
  const desc = describe(d.capability);
  const shown = optionsInPlay(d, defaultChannel).names.filter((n) => !desc.options.includes('channel') || (n !== 'channel' && n !== 'voice'));
  return (
    <>
      {shown.map((name: OptionName) => {
        const record: CapabilityOption = CAPABILITY_OPTIONS[name];
        const fallback: unknown = desc.defaults?.[name as keyof NonNullable<typeof desc.defaults>];
        return (
          <RecordField
            key={name}
            field={record.field}
            value={optionText(d, name)}
            placeholder={typeof fallback === 'string' ? t('defaultValue', { value: fallback }) : undefined}
            error={errors[name]}
            onChange={(v) => d.set({ options: { ...d.options, [name]: v } })}
          />
        );
      })}
    </>
  );
}

/** A batch setting's field, when it applies to the draft. */
function SettingField({ name, errors }: { name: SettingName; errors: DraftRequest['errors'] }) {
  const d = useDraftStore();
  if (!settingApplies(d, name)) return null;
  return (
    <RecordField
      field={BATCH_SETTINGS[name].field}
      value={d.settings[name] ?? ''}
      error={errors[name]}
      onChange={(v) => d.set({ settings: { ...d.settings, [name]: v } })}
    />
  );
}

/** Under the redaction field when it takes phones: which country's national numbers are found, or that none are. */
function PhoneCountryNote({ phoneCountry }: { phoneCountry: PhoneCountry | null }) {
  const d = useDraftStore();
  const { t, i18n } = useTranslation('newBatch');
  if (phoneCountry === null || !settingApplies(d, 'redact')) return null;
  const kinds = readSetting('redact', d.settings.redact ?? '');
  if (!kinds.ok || !kinds.value.includes('phones')) return null;
  // The choice itself is in Settings: the hint links there rather than naming a command.
  const change = <a href={hrefFor({ name: 'keys', section: 'phone-country' })}>{t('phoneCountry.link')}</a>;
  if (phoneCountry.country === null)
    return (
      <p className="hint" data-testid="phone-country">
        {t('phoneCountry.none', { locale: phoneCountry.locale === '' ? '-' : phoneCountry.locale })} {change}
      </p>
    );
  let country = phoneCountry.country;
  try {
    country = new Intl.DisplayNames([i18n.language], { type: 'region' }).of(phoneCountry.country) ?? country;
  } catch {
    // An unknown window language: the code itself.
  }
  return (
    <p className="hint" data-testid="phone-country">
      {phoneCountry.from === 'setting'
        ? t('phoneCountry.setting', { country, code: phoneCountry.country })
        : t(phoneCountry.from === 'window' ? 'phoneCountry.window' : 'phoneCountry.locale', {
            country,
            code: phoneCountry.country,
            locale: phoneCountry.locale ?? '',
          })}{' '}
      {change}
    </p>
  );
}

/** Start later: the batch waits, then starts by itself (its time can be changed or removed from its card). */
function StartAt({ errors }: { errors: DraftRequest['errors'] }) {
  const d = useDraftStore();
  const { t } = useTranslation('newBatch');
  return (
    <DateTimeFields
      className="field"
      legend={t('startAt.label')}
      date={d.atDate}
      time={d.atTime}
      hint={t('startAt.hint')}
      error={errors.at}
      onChange={(atDate, atTime) => d.set({ atDate, atTime })}
    />
  );
}

export function BatchOptions({
  defaultChannel,
  phoneCountry,
  errors,
  defaultName,
}: {
  defaultChannel: string;
  /** From settings: whose national phone numbers redaction finds (null until read). */
  phoneCountry: PhoneCountry | null;
  errors: DraftRequest['errors'];
  /** What the batch is called if the field stays empty (in the window's language). */
  defaultName: string | null;
}) {
  const d = useDraftStore();
  const { t } = useTranslation('newBatch');
  const ids = { tier: useId(), name: useId(), other: useId(), channelErr: useId(), voice: useId(), voiceHint: useId() };
  const voice = fieldWords('voice');
  const channels: { value: ChannelChoice; label: string }[] = [
    { value: 'default', label: t('channel.default', { channel: channelWords(defaultChannel) }) },
    { value: 'voice', label: t('channel.voice') },
    { value: 'email', label: t('channel.email') },
    { value: 'other', label: t('channel.other') },
  ];
  return (
    <div className="batch-options">
      <div className="field">
        <label htmlFor={ids.tier}>{t('tier')}</label>
        <select id={ids.tier} value={d.tier} onChange={(e) => d.set({ tier: e.target.value as Tier })}>
          {TIERS.map((tier) => (
            <option key={tier} value={tier}>
              {TIER_LABEL[tier]}
            </option>
          ))}
        </select>
      </div>

      <CapabilityOptions errors={errors} defaultChannel={defaultChannel} />

      {describe(d.capability).options.includes('channel') ? (
        <fieldset className="batch-options__channel">
          <legend>{t('channel.legend')}</legend>
          {channels.map((c) => (
            <label key={c.value} className="batch-options__radio">
              <input type="radio" name="channel" value={c.value} checked={d.channelChoice === c.value} onChange={() => d.set({ channelChoice: c.value })} />
              {c.label}
            </label>
          ))}
          {d.channelChoice === 'other' ? (
            <div className="field">
              <label htmlFor={ids.other}>{t('channel.otherName')}</label>
              <input
                id={ids.other}
                type="text"
                value={d.otherChannel}
                placeholder={t('channel.otherPlaceholder')}
                aria-invalid={errors.channel ? true : undefined}
                aria-describedby={errors.channel ? ids.channelErr : undefined}
                onChange={(e) => d.set({ otherChannel: e.target.value })}
              />
            </div>
          ) : null}
          {d.channelChoice === 'voice' ? (
            <div className="field">
              <label htmlFor={ids.voice}>{voice.label}</label>
              <input
                id={ids.voice}
                type="text"
                value={d.options.voice ?? ''}
                placeholder={voice.placeholder}
                aria-invalid={errors.voice ? true : undefined}
                aria-describedby={ids.voiceHint}
                onChange={(e) => d.set({ options: { ...d.options, voice: e.target.value } })}
              />
              <span id={ids.voiceHint} className={errors.voice ? 'field-error' : 'field-hint'}>
                {errors.voice ?? t('channel.voiceHint')}
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
        <label htmlFor={ids.name}>{t('name')}</label>
        <input
          id={ids.name}
          type="text"
          value={d.name}
          maxLength={200}
          placeholder={defaultName ?? undefined}
          onChange={(e) => d.set({ name: e.target.value })}
        />
      </div>

      <SettingField name="budget" errors={errors} />

      <StartAt errors={errors} />
      <SettingField name="quietHours" errors={errors} />
      <SettingField name="recipientGapMs" errors={errors} />
      <SettingField name="nationalNumbers" errors={errors} />
      <SettingField name="sample" errors={errors} />
      <SettingField name="redact" errors={errors} />
      <PhoneCountryNote phoneCountry={phoneCountry} />
      <SettingField name="redactStored" errors={errors} />
      <SettingField name="keepFilesDays" errors={errors} />
      <SettingField name="keepResultsDays" errors={errors} />
    </div>
  );
}
