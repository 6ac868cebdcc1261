// Engine settings: concurrency, request limit, attempts, longest wait, messaging app name, API URL.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { toast } from '../components/toast-store';
import type { SettingsView } from '../../../shared/contract';
import { client } from '../client';
import { DoneNote, ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { useConnectionStore } from '../store/connection-store';
import {
  MESSAGING_CHANNEL_MESSAGE,
  MESSAGING_CHANNEL_RE,
  NUMERIC_SETTINGS,
  checkApiUrl,
  parseNumericSetting,
  type NumericSettingRule,
} from '../../../shared/settings-rules';

interface Draft {
  concurrency: string;
  rpm: string;
  maxAttempts: string;
  maxWaitMinutes: string;
  messagingChannel: string;
  apiUrl: string;
}

const toDraft = (s: SettingsView): Draft => ({
  concurrency: String(s.concurrency),
  rpm: String(s.rpm),
  maxAttempts: String(s.maxAttempts),
  maxWaitMinutes: String(s.maxWaitMinutes),
  messagingChannel: s.messagingChannel,
  apiUrl: s.apiUrl ?? '',
});

// The same rules and words as the engine and the command line (settings-rules.ts).
function int(text: string, rule: NumericSettingRule): number {
  const r = parseNumericSetting(rule, text.trim());
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

function parse(d: Draft): Omit<SettingsView, 'phoneCountry'> {
  const messagingChannel = d.messagingChannel.trim().toLowerCase();
  if (!MESSAGING_CHANNEL_RE.test(messagingChannel)) throw new Error(MESSAGING_CHANNEL_MESSAGE);
  let apiUrl: string | null = null;
  if (d.apiUrl.trim() !== '') {
    const r = checkApiUrl(d.apiUrl.trim());
    if (!r.ok) throw new Error(r.message);
    apiUrl = r.url;
  }
  return {
    concurrency: int(d.concurrency, NUMERIC_SETTINGS.concurrency),
    rpm: int(d.rpm, NUMERIC_SETTINGS.rpm),
    maxAttempts: int(d.maxAttempts, NUMERIC_SETTINGS.maxAttempts),
    maxWaitMinutes: int(d.maxWaitMinutes, NUMERIC_SETTINGS.maxWaitMinutes),
    messagingChannel,
    apiUrl,
  };
}

export function SettingsForm() {
  const { t } = useTranslation('keys');
  const load = useAction();
  const save = useAction();
  const reloadConnection = useConnectionStore((s) => s.load);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    void load.run(async () => setDraft(toDraft(await client().call('settings.get', {}))));
  }, [load.run]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setNote(null);
    void save.run(async () => {
      const saved = await client().call('settings.set', parse(draft));
      setDraft(toDraft(saved));
      setNote(t('settings.saved'));
      toast(tr('common:toast.settingsSaved'));
      void reloadConnection();
    });
  };

  const field = (key: keyof Draft, label: string, hint: string, type: 'text' | 'number' | 'url' = 'text') =>
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
