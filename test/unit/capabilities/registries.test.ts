// Adding a capability or an option touches the files docs/architecture.md lists under "Adding a
// capability"; everything else is derived from them. This test fails when a place that is not
// derived misses one: an engine module, a sandbox route for its request, its prices (a missing
// result view is refused by the compiler: RESULT_VIEWS is a Record of every capability, and the
// renderer's JSX is outside this test's build); and it checks that the derived places (CLI spec, contract, stored options, New batch
// screen, pipeline steps) do offer every capability and every option.
import { describe as group, expect, it } from 'vitest';
import { CAPABILITIES, TIERS, type Capability } from '../../../src/shared/domain';
import { CAPABILITY_DESCRIPTORS, describe } from '../../../src/shared/capabilities/catalog';
import {
  BATCH_SETTINGS,
  BUDGET_RULE,
  CAPABILITY_OPTIONS,
  OPTION_NAMES,
  SETTING_NAMES,
  StoredOptions,
  type CapabilityOption,
} from '../../../src/shared/capabilities/options';
import { MAIN_OPTION, parseStep, PipelineStep } from '../../../src/shared/capabilities/steps';
import { DEFAULT_RATES, RATE_ITEMS, RATE_LABELS } from '../../../src/shared/rates';
import { BatchRequest } from '../../../src/shared/contract';
import { capabilityFor } from '../../../src/main/engine/capabilities/registry';
import type { BatchContext, PlanItem } from '../../../src/main/engine/capabilities/capability';
import { matchRoute } from '../../../src/sandbox/routes/index';
import { batchCreateSpec } from '../../../src/main/cli/specs/batch-create';
import { draftRequest, optionsInPlay } from '../../../src/renderer/src/new-batch/draft-store';

/** One item of the capability's input kind, as an importer hands it over. */
function itemFor(c: Capability): PlanItem {
  const input = describe(c).input;
  if (input.kind === 'files') {
    const media = input.media === 'audio' ? { mime: 'audio/wav', path: '/calls/a.wav' } : { mime: 'application/pdf', path: '/scans/a.pdf' };
    return { kind: 'file', file: { ...media, size: 1000, mtimeMs: 0, sha256: 'a'.repeat(64), units: 1, unitsExact: true } };
  }
  if (input.kind === 'messages') return { kind: 'message', message: { row: 2, to: '+442079460001', text: 'Hello', subject: null, fields: {} } };
  return { kind: 'row', row: 2, line: false, text: 'Hello there', fields: { ...(input.column ? { [input.column]: 'Hello there' } : { name: 'Ada' }) } };
}

/** Every field a draft can have, with the options that bring every field into play. */
const DRAFT = {
  sources: [{ path: '/in/x', label: 'x', files: null }],
  from: null,
  then: [],
  tier: 'standard' as const,
  channelChoice: 'voice' as const,
  otherChannel: '',
  options: { task: 'classify', labels: 'a, b' },
  name: '',
  settings: {},
  keyLabel: '',
  allowResend: false,
  atDate: '',
  atTime: '',
};

group('every capability is in every registry', () => {
  it.each(CAPABILITIES)('%s: an engine module whose request a sandbox route serves', (c) => {
    const module = capabilityFor(c);
    expect(module, `no engine module for ${c} in src/main/engine/capabilities/registry.ts`).toBeDefined();
    expect(module.descriptor).toBe(describe(c));
    const ctx: BatchContext = { tier: 'standard', channel: describe(c).options.includes('channel') ? 'whatsapp' : null, options: { ...describe(c).defaults } };
    const planned = module.plan(itemFor(c), ctx);
    if (!planned.ok) throw new Error(`${c} refused the test item: ${planned.message}`);
    const payload = module.nameOutput ? module.nameOutput(planned.payload, (base, ext) => `${base}.${ext}`) : planned.payload;
    const output = describe(c).outputs ? { path: '/out/x', name: 'x' } : null;
    const req = module.buildRequest(payload, { idempotencyKey: 'k', requestBody: module.requestBody(payload, ctx), output }, ctx);
    expect(matchRoute(req.method, `/v1${req.path}`).kind, `no sandbox route (src/sandbox/routes) for ${req.method} /v1${req.path}`).toBe('found');
  });

  it.each(CAPABILITIES)('%s: prices for every rate item and tier, and a name in the rates table', (c) => {
    const d = describe(c);
    expect(d.rates.length).toBeGreaterThan(0);
    for (const r of d.rates) {
      expect(RATE_ITEMS).toContain(r.item);
      expect(RATE_LABELS[r.item]).toBe(r.label);
      for (const t of TIERS) expect(Number.isInteger(DEFAULT_RATES[r.item][t]) && DEFAULT_RATES[r.item][t] >= 0, `${r.item} ${t}`).toBe(true);
    }
    const items = d.rates.map((r) => r.item);
    for (const channel of [null, 'whatsapp', 'voice', 'email']) expect(items).toContain(d.rateItem(channel));
  });

  it.each(CAPABILITIES)('%s: on the command line and the New batch screen, with every option it takes', (c) => {
    const d = describe(c);
    expect(batchCreateSpec.usage[0]).toContain(c);
    if (d.takesFrom) expect(batchCreateSpec.usage[1]).toContain(c);
    // The screen shows exactly the options the capability takes (labels with classify, a voice with calls).
    expect(optionsInPlay({ ...DRAFT, capability: c }, 'whatsapp').names).toEqual(OPTION_NAMES.filter((n) => d.options.includes(n)));
    if (d.stepOption !== undefined) {
      expect(d.options).toContain(d.stepOption);
      expect(MAIN_OPTION[c]).toBe(d.stepOption);
    }
  });

  it('rate items belong to their capability, each once', () => {
    expect(new Set(RATE_ITEMS).size).toBe(RATE_ITEMS.length);
    for (const d of Object.values(CAPABILITY_DESCRIPTORS)) for (const r of d.rates) expect(r.item.split('.')[0]).toBe(d.name);
  });
});

group('every option record reaches every face', () => {
  const shape = BatchRequest.shape as Record<string, unknown>;
  const stepShape = PipelineStep.shape as Record<string, unknown>;
  const flags = batchCreateSpec.options as Record<string, { help: string; value?: string }>;

  it.each(OPTION_NAMES)('%s: a flag, a request field, a step field, a stored form (or column), a capability that takes it', (name) => {
    const record: CapabilityOption = CAPABILITY_OPTIONS[name];
    expect(flags[name]?.value).toBe(record.flag.value);
    expect(flags[name]?.help).toContain(record.flag.help);
    expect(shape[name], `${name} is not a field of the contract's BatchRequest`).toBeDefined();
    expect(stepShape[name]).toBeDefined();
    if (record.stored) expect(StoredOptions.shape).toHaveProperty(name);
    else expect(name).toBe('channel'); // the one option with a column of its own
    expect(CAPABILITIES.some((c) => describe(c).options.includes(name))).toBe(true);
    expect(record.field.label).not.toBe('');
    const stepOf = CAPABILITIES.filter((c) => describe(c).stepOption === name);
    if (stepOf.length > 0) expect(record.step, `${name} is a step option of ${stepOf.join(', ')} without step choices`).toBeDefined();
  });

  it.each(SETTING_NAMES)('%s: a flag and a request field', (name) => {
    const s = BATCH_SETTINGS[name];
    expect(flags[s.flag.name]?.help).toBe(s.flag.help);
    expect(shape[name]).toBeDefined();
  });

  it('a step option takes its first value as a step: `capability:value` parses', () => {
    for (const c of CAPABILITIES) {
      const main = MAIN_OPTION[c];
      if (main === undefined) continue;
      const step = (CAPABILITY_OPTIONS[main] as CapabilityOption).step;
      const value = step?.choices?.[0] ?? step?.initial ?? '';
      const text = value === '' ? c : `${c}:${value}`;
      expect(parseStep(text), text).toMatchObject({ ok: true });
    }
  });
});

group('a budget is above 0: the contract says so, in the sentence both faces show', () => {
  it('the contract refuses 0 with the rule', () => {
    const r = BatchRequest.safeParse({ capability: 'ocr', paths: ['/x.pdf'], budget: 0 });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain(BUDGET_RULE);
    expect(BatchRequest.safeParse({ capability: 'ocr', paths: ['/x.pdf'], budget: 1 }).success).toBe(true);
  });

  it('the New batch screen shows that sentence under the field, for 0 and for what is not an amount', () => {
    for (const text of ['0', 'lots', '1.23456']) {
      const { request, errors } = draftRequest({ ...DRAFT, capability: 'ocr', settings: { budget: text } }, 'whatsapp');
      expect(request).toBeNull();
      expect(errors.budget).toBe(BUDGET_RULE);
    }
    expect(draftRequest({ ...DRAFT, capability: 'ocr', settings: { budget: '12.50' } }, 'whatsapp').request?.budget).toBe(125_000);
  });
});

group('quiet hours are a stretch: the contract refuses one that ends where it starts, as the engine does', () => {
  it('refused by the contract and on the New batch screen, in one sentence', () => {
    const r = BatchRequest.safeParse({ capability: 'channel', paths: ['/m.csv'], quietHours: '21:00-21:00' });
    expect(r.success).toBe(false);
    const message = r.error?.issues[0]?.message;
    expect(message).toMatch(/start and end at the same time/);
    const draft = draftRequest({ ...DRAFT, capability: 'channel', channelChoice: 'default', options: {}, settings: { quietHours: '21:00-21:00' } }, 'whatsapp');
    expect(draft.errors.quietHours).toBe(message);
    expect(
      draftRequest({ ...DRAFT, capability: 'channel', channelChoice: 'default', options: {}, settings: { quietHours: '21:00-08:00' } }, 'whatsapp').request
        ?.quietHours,
    ).toBe('21:00-08:00');
  });
});
