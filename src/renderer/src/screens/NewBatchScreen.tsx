// #/new: choose what to run, add sources, set options, see the estimate, start.
// Nothing is sent to the API before "Start batch".
import { rejectedRowsBySource } from '../new-batch/problem-groups';
import type { PhoneCountry } from '../../../shared/phone-country';
import { useEffect, useId, useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { capabilityWords } from '../format/option-words';
import { BATCH_CAPABILITIES } from '../../../shared/domain';
import { client, errorMessage } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { toast } from '../components/toast-store';
import { CAPABILITY_ICON, Icon } from '../components/icons';
import { useAction } from '../hooks/use-action';
import { describe } from '../../../shared/capabilities/catalog';
import { problemWords } from '../new-batch/problem-words';
import { BatchOptions } from '../new-batch/BatchOptions';
import { localBatchName } from '../new-batch/batch-name-words';
import { reportWindowLocale } from '../i18n/window-locale';
import { DropZone } from '../new-batch/DropZone';
import { draftRequest, useDraftStore } from '../new-batch/draft-store';
import { PreviewFigures, PreviewPanels } from '../new-batch/PreviewPanel';
import { SourceList } from '../new-batch/SourceList';
import { usePreview } from '../new-batch/use-preview';
import { hrefFor } from '../routing/route';
import { navigate } from '../routing/use-route';
import { ThenSteps } from '../new-batch/ThenSteps';
import { formatCount, formatDateTime } from '../format/time';
import { useBatchesStore } from '../store/batches-store';
import type { Problem } from '../../../shared/contract';
import './NewBatchScreen.css';

function useDefaultChannel(): { channel: string; phoneCountry: PhoneCountry | null; error: string | null } {
  const [channel, setChannel] = useState('whatsapp');
  const [phoneCountry, setPhoneCountry] = useState<PhoneCountry | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // Read once the engine has the window's locale, so the phone country's note says what redaction will use.
    reportWindowLocale()
      .then(() => client().call('settings.get', {}))
      .then((s) => {
        setChannel(s.messagingChannel);
        setPhoneCountry(s.phoneCountry);
      })
      .catch((e: unknown) => setError(tr('newBatch:settingsError', { error: errorMessage(e) })));
  }, []);
  return { channel, phoneCountry, error };
}

/** The batch a follow-up takes its items from, as the window knows it. */
function FollowedBatch({ id, onClear }: { id: string; onClear(): void }) {
  const parent = useBatchesStore((s) => s.byId[id]);
  const { t } = useTranslation('newBatch');
  const link = <a href={hrefFor({ name: 'batch', id, jobId: null })} />;
  return (
    <section className="card stack" aria-labelledby="new-from">
      <h2 id="new-from">{t('followUp.heading')}</h2>
      <p data-testid="follow-up-of">
        {parent ? (
          <Trans
            t={t}
            i18nKey="followUp.ofNamed"
            values={{ name: parent.name, capability: capabilityWords(parent.capability).short, n: formatCount(parent.counts.succeeded) }}
            components={[link]}
          />
        ) : (
          <Trans t={t} i18nKey="followUp.ofId" values={{ id }} components={[link]} />
        )}
      </p>
      <p>
        <button type="button" onClick={onClear}>
          {t('followUp.useFiles')}
        </button>
      </p>
    </section>
  );
}

/** The Start button's words: one whole sentence for each case. */
function startLabel(busy: boolean, then: number): string {
  if (busy) return tr('newBatch:start.busy');
  if (then > 0) return tr('newBatch:start.pipeline', { count: then + 1 });
  return tr('newBatch:start.batch');
}

export function NewBatchScreen({ from = null }: { from?: string | null }) {
  const draft = useDraftStore();
  const { t } = useTranslation('newBatch');
  // A follow-up link (#/new/from/<id>) sets what the draft follows, and a capability that can.
  useEffect(() => {
    const s = useDraftStore.getState();
    if (from === null) {
      // "New batch" from the menu starts from files.
      if (s.from !== null) s.set({ from: null });
      return;
    }
    if (s.from === from) return;
    s.set({ from, capability: describe(s.capability).takesFrom ? s.capability : 'text', then: [] });
  }, [from]);
  const { channel: defaultChannel, phoneCountry, error: settingsError } = useDefaultChannel();
  const { request, errors } = useMemo(() => draftRequest(draft, defaultChannel), [draft, defaultChannel]);
  const preview = usePreview(request);
  const start = useAction();
  const merge = useBatchesStore((s) => s.merge);
  const [createProblems, setCreateProblems] = useState<Problem[] | null>(null);
  const capId = useId();
  const resendId = useId();

  const current = request !== null && preview.forKey === JSON.stringify(request) ? preview.preview : null;
  const canStart = request !== null && current !== null && current.items > 0 && !preview.loading && !start.busy;
  // Left empty, the batch is named in the window's language from what was dropped; a typed name is sent as typed.
  const defaultName = current?.nameParts ? localBatchName(current.nameParts) : null;

  const onStart = () =>
    start.run(async () => {
      if (!request) return;
      setCreateProblems(null);
      const refused = (r: { problems: Problem[]; alreadyQueued: number }): Error => {
        setCreateProblems(r.problems);
        return new Error(r.alreadyQueued > 0 ? t('refused.alreadyQueued') : t('refused.noneValid'));
      };
      const named = request.name === undefined && defaultName !== null ? { ...request, name: defaultName } : request;
      const r = await client().call('batches.create', named);
      if (!r.batch) throw refused(r);
      merge([r.batch, ...r.steps]);
      const { name, scheduled_for: at } = r.batch;
      toast(at !== null ? tr('common:toast.scheduled', { name, at: formatDateTime(at) }) : tr('common:toast.started', { name }));
      draft.reset();
      navigate({ name: 'batch', id: r.batch.id, jobId: null });
    });

  const problems = preview.preview?.problems ?? [];
  return (
    <div className="screen new-batch">
      <div className="screen__head">
        <h1>{t('heading')}</h1>
      </div>
      <ErrorAlert message={settingsError} />
      <div className="new-batch__grid">
        <div className="new-batch__inputs stack">
          <section className="card new-batch__what" aria-labelledby={capId}>
            <h2 id={capId}>{t('what.heading')}</h2>
            <fieldset className="new-batch__capabilities">
              <legend className="visually-hidden">{t('what.legend')}</legend>
              {BATCH_CAPABILITIES.filter((c) => draft.from === null || describe(c).takesFrom).map((c) => (
                <label key={c} className={`new-batch__capability${draft.capability === c ? ' new-batch__capability--on' : ''}`} title={capabilityWords(c).hint}>
                  <input type="radio" name="capability" value={c} checked={draft.capability === c} onChange={() => draft.set({ capability: c, then: [] })} />
                  <Icon icon={CAPABILITY_ICON[c]} className="new-batch__capability-icon" />
                  <span className="new-batch__capability-name">{capabilityWords(c).label}</span>
                </label>
              ))}
            </fieldset>
            <p className="field-hint new-batch__capability-hint">{capabilityWords(draft.capability).hint}</p>
          </section>

          {draft.from !== null ? (
            <FollowedBatch
              id={draft.from}
              onClear={() => {
                draft.set({ from: null });
                navigate({ name: 'new', from: null });
              }}
            />
          ) : (
            <section className="card stack" aria-labelledby="new-sources">
              <h2 id="new-sources">{t('sources.heading')}</h2>
              <DropZone capability={draft.capability} onAdd={draft.addSources} />
              <SourceList sources={draft.sources} onRemove={draft.removeSource} />
            </section>
          )}

          <section className="card stack" aria-labelledby="new-options">
            <h2 id="new-options">{t('options.heading')}</h2>
            <BatchOptions defaultChannel={defaultChannel} phoneCountry={phoneCountry} errors={errors} defaultName={defaultName} />
          </section>

          <ThenSteps error={errors.then} />
        </div>

        <section className="new-batch__estimate" aria-labelledby="new-estimate" aria-busy={preview.loading}>
          <div className="card stack new-batch__summary" data-testid="new-batch-summary">
            <h2 id="new-estimate">{t('estimate.heading')}</h2>
            {draft.sources.length === 0 && draft.from === null ? <p className="muted">{t('estimate.empty')}</p> : null}
            {preview.loading ? (
              <p role="status" className="muted">
                {t('estimate.busy')}
              </p>
            ) : null}
            <ErrorAlert message={preview.error} />
            {preview.preview ? <PreviewFigures preview={preview.preview} budget={request?.budget ?? null} /> : null}
            {preview.preview && (preview.preview.alreadyQueued > 0 || draft.allowResend) ? (
              <div className="row new-batch__resend">
                <input id={resendId} type="checkbox" checked={draft.allowResend} onChange={(e) => draft.set({ allowResend: e.target.checked })} />
                <label htmlFor={resendId}>
                  {preview.preview.alreadyQueued > 0 ? t('resend.leftOut', { n: formatCount(preview.preview.alreadyQueued) }) : t('resend.plain')}
                </label>
              </div>
            ) : null}
            {createProblems && createProblems.length > 0 ? (
              <ul className="new-batch__create-problems" aria-label={t('createProblems')}>
                {createProblems.map((p, i) => (
                  <li key={i}>{problemWords(p)}</li>
                ))}
              </ul>
            ) : null}
            <div className="new-batch__start">
              <button type="button" className="primary new-batch__start-button" onClick={() => void onStart()} disabled={!canStart}>
                {startLabel(start.busy, draft.then.length)}
              </button>
              <p className="field-hint">
                {t('start.hint')}
                {/* Said only when there are problems; the download only when some name a CSV's rows. */}
                {problems.length === 0 ? null : ` ${rejectedRowsBySource(problems).length > 0 ? t('start.hintRejected') : t('start.hintSkipped')}`}
              </p>
            </div>
            <ErrorAlert message={start.error} />
          </div>
          {preview.preview ? <PreviewPanels preview={preview.preview} capability={draft.capability} phoneCountry={phoneCountry?.country ?? null} /> : null}
        </section>
      </div>
    </div>
  );
}
