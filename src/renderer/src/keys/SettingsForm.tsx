// Engine settings: concurrency, request limit, attempts, longest wait, messaging app name, API URL, and the
// phone country redaction reads national numbers by (`config set phone_country`), chosen from a list.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { reportWindowLocale } from '../i18n/window-locale';
import { formatCount } from '../format/time';
import { toast } from '../components/toast-store';
import type { SettingsView } from '../../../shared/contract';
import { client } from '../client';
import { DoneNote, ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { useConnectionStore } from '../store/connection-store';
import { MESSAGING_CHANNEL_RE, NUMERIC_SETTINGS, checkApiUrl, parseNumericSetting, type NumericSettingRule } from '../../../shared/settings-rules';

interface Draft {
  concurrency: string;
  rpm: string;
  maxAttempts: string;
  maxWaitMinutes: string;
  messagingChannel: string;
  apiUrl: string;
  /** A two-letter code, or auto (this computer's locale). */
  phoneCountry: string;
}

const toDraft = (s: SettingsView): Draft => ({
  concurrency: String(s.concurrency),
  rpm: String(s.rpm),
  maxAttempts: String(s.maxAttempts),
  maxWaitMinutes: String(s.maxWaitMinutes),
  messagingChannel: s.messagingChannel,
  apiUrl: s.apiUrl ?? '',
  phoneCountry: s.phoneCountry.country !== null && s.phoneCountry.from === 'setting' ? s.phoneCountry.country : 'auto',
});

// The same rules as the engine and the command line (settings-rules.ts), said in the window's language.
const NUMBER_LABEL = {
  concurrency: 'settings.concurrency',
  rpm: 'settings.rpm',
  maxAttempts: 'settings.maxAttempts',
  maxWaitMinutes: 'settings.maxWait',
} as const;

function int(text: string, name: keyof typeof NUMBER_LABEL): number {
  const rule: NumericSettingRule = NUMERIC_SETTINGS[name];
  const r = parseNumericSetting(rule, text.trim());
  if (!r.ok)
    throw new Error(
      tr('keys:settings.invalid.number', { field: tr(`keys:${NUMBER_LABEL[name]}`), min: formatCount(rule.min), max: formatCount(rule.max), got: text.trim() }),
    );
  return r.value;
}

function parse(d: Draft): Omit<SettingsView, 'phoneCountry'> & { phoneCountry: string } {
  const messagingChannel = d.messagingChannel.trim().toLowerCase();
  if (!MESSAGING_CHANNEL_RE.test(messagingChannel)) throw new Error(tr('keys:settings.invalid.channel', { got: d.messagingChannel.trim() }));
  let apiUrl: string | null = null;
  if (d.apiUrl.trim() !== '') {
    const r = checkApiUrl(d.apiUrl.trim());
    if (!r.ok) throw new Error(tr('keys:settings.invalid.apiUrl', { got: d.apiUrl.trim() }));
    apiUrl = r.url;
  }
  return {
    concurrency: int(d.concurrency, 'concurrency'),
    rpm: int(d.rpm, 'rpm'),
    maxAttempts: int(d.maxAttempts, 'maxAttempts'),
    maxWaitMinutes: int(d.maxWaitMinutes, 'maxWaitMinutes'),
    messagingChannel,
    apiUrl,
    phoneCountry: d.phoneCountry,
  };
}

/** A region's name in the window's language ("Deutschland"), or its code where the runtime has none. */
function regionNamer(language: string): (code: string) => string {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    // An unknown window language: the codes themselves.
  }
  return (code) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

export function SettingsForm({ focusPhoneCountry = false }: { focusPhoneCountry?: boolean }) {
  const { t, i18n } = useTranslation('keys');
  const [regions, setRegions] = useState<string[]>([]);
  /** What automatic gives now (this computer's locale), as the engine resolved it. */
  const [localeCountry, setLocaleCountry] = useState<{ country: string | null; window: boolean }>({ country: null, window: false });
  const phoneSelect = useRef<HTMLSelectElement>(null);
  const load = useAction();
  const save = useAction();
  const reloadConnection = useConnectionStore((s) => s.load);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const id = useId();

  const remember = (v: SettingsView): void => {
    setDraft(toDraft(v));
    // What "automatic" reads: this computer's locale, else the window's (the setting itself is not it).
    if (v.phoneCountry.country === null || v.phoneCountry.from !== 'setting')
      setLocaleCountry({ country: v.phoneCountry.country, window: v.phoneCountry.country !== null && v.phoneCountry.from === 'window' });
  };
  useEffect(() => {
    void load.run(async () => {
      // Read once the engine has the window's locale: "automatic" may be the window's region.
      const [view, known] = await Promise.all([reportWindowLocale().then(() => client().call('settings.get', {})), client().call('settings.phoneRegions', {})]);
      setRegions(known.regions);
      remember(view);
    });
  }, [load.run]);
  // Linked from New batch's redaction hint: the choice itself, in view and focused.
  const loaded = draft !== null && regions.length > 0;
  useEffect(() => {
    if (!focusPhoneCountry || !loaded) return;
    phoneSelect.current?.scrollIntoView({ block: 'center' });
    phoneSelect.current?.focus();
  }, [focusPhoneCountry, loaded]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setNote(null);
    void save.run(async () => {
      const saved = await client().call('settings.set', parse(draft));
      remember(saved);
      setNote(t('settings.saved'));
      toast(tr('common:toast.settingsSaved'));
      void reloadConnection();
    });
  };

  const nameOf = regionNamer(i18n.language);
  const collator = new Intl.Collator(i18n.language);
  const countries = regions.map((code) => ({ code, name: nameOf(code) })).sort((a, b) => collator.compare(a.name, b.name));

  const field = (key: Exclude<keyof Draft, 'phoneCountry'>, label: string, hint: string, type: 'text' | 'number' | 'url' = 'text') =>
    draft ? (
      <div className="field">
        <label htmlFor={`${id}-${key}`}>{label}</label>
        <input
          id={`${id}-${key}`}
          type={type}
          value={draft[key]}
          aria-describedby={`${id}-${key}-hint`}
          onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        />
        <span id={`${id}-${key}-hint`} className="field-hint">
          {hint}
        </span>
      </div>
    ) : null;

  return (
    <section className="card stack" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('settings.heading')}</h2>
      <ErrorAlert message={load.error} />
      {draft ? (
        <form onSubmit={submit} className="stack" aria-label={t('settings.heading')}>
          <div className="keys__settings-grid">
            {field('concurrency', t('settings.concurrency'), t('settings.concurrencyHint'), 'number')}
            {field('rpm', t('settings.rpm'), t('settings.rpmHint'), 'number')}
            {field('maxAttempts', t('settings.maxAttempts'), t('settings.maxAttemptsHint'), 'number')}
            {field('maxWaitMinutes', t('settings.maxWait'), t('settings.maxWaitHint'), 'number')}
            {field('messagingChannel', t('settings.messagingChannel'), t('settings.messagingChannelHint'))}
            {field('apiUrl', t('settings.apiUrl'), t('settings.apiUrlHint'), 'url')}
            <div className="field">
              <label htmlFor={`${id}-phone`}>{t('settings.phone.label')}</label>
              <select
                id={`${id}-phone`}
                ref={phoneSelect}
                value={draft.phoneCountry}
                aria-describedby={`${id}-phone-hint`}
                onChange={(e) => setDraft({ ...draft, phoneCountry: e.target.value })}
              >
                <option value="auto">
                  {localeCountry.country === null
                    ? t('settings.phone.autoNone')
                    : t(localeCountry.window ? 'settings.phone.autoWindow' : 'settings.phone.auto', { country: nameOf(localeCountry.country) })}
                </option>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {t('settings.phone.option', { name: c.name, code: c.code })}
                  </option>
                ))}
              </select>
              <span id={`${id}-phone-hint`} className="field-hint">
                {t('settings.phone.hint')}
              </span>
            </div>
          </div>
          <div className="row">
            <button type="submit" className="primary" disabled={save.busy}>
              {t('settings.save')}
            </button>
          </div>
          <ErrorAlert message={save.error} />
          <DoneNote message={note} />
        </form>
      ) : load.busy ? (
        <p className="muted">{t('loading')}</p>
      ) : null}
    </section>
  );
}
