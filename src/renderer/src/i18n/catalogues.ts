// Every namespace of the window's text, in every language it ships in (one JSON file per
// namespace and language; test/unit/renderer/i18n-catalogues.test.ts keeps them in step).
import enCommon from './locales/en/common.json';
import deCommon from './locales/de/common.json';
import enShell from './locales/en/shell.json';
import deShell from './locales/de/shell.json';
import enNewBatch from './locales/en/newBatch.json';
import deNewBatch from './locales/de/newBatch.json';
import enBatches from './locales/en/batches.json';
import deBatches from './locales/de/batches.json';
import enBatch from './locales/en/batch.json';
import deBatch from './locales/de/batch.json';
import enJobs from './locales/en/jobs.json';
import deJobs from './locales/de/jobs.json';
import enResults from './locales/en/results.json';
import deResults from './locales/de/results.json';
import enCosts from './locales/en/costs.json';
import deCosts from './locales/de/costs.json';
import enKeys from './locales/en/keys.json';
import deKeys from './locales/de/keys.json';
import enWatch from './locales/en/watch.json';
import deWatch from './locales/de/watch.json';
import enSearch from './locales/en/search.json';
import deSearch from './locales/de/search.json';
import enCompare from './locales/en/compare.json';
import deCompare from './locales/de/compare.json';
import enPipeline from './locales/en/pipeline.json';
import dePipeline from './locales/de/pipeline.json';
import enOptions from './locales/en/options.json';
import deOptions from './locales/de/options.json';

export const NAMESPACES = [
  'common',
  'shell',
  'newBatch',
  'batches',
  'batch',
  'jobs',
  'results',
  'costs',
  'keys',
  'watch',
  'search',
  'compare',
  'pipeline',
  'options',
] as const;
export type Namespace = (typeof NAMESPACES)[number];
export const DEFAULT_NAMESPACE = 'common' satisfies Namespace;

const en = {
  common: enCommon,
  shell: enShell,
  newBatch: enNewBatch,
  batches: enBatches,
  batch: enBatch,
  jobs: enJobs,
  results: enResults,
  costs: enCosts,
  keys: enKeys,
  watch: enWatch,
  search: enSearch,
  compare: enCompare,
  pipeline: enPipeline,
  options: enOptions,
};
const de = {
  common: deCommon,
  shell: deShell,
  newBatch: deNewBatch,
  batches: deBatches,
  batch: deBatch,
  jobs: deJobs,
  results: deResults,
  costs: deCosts,
  keys: deKeys,
  watch: deWatch,
  search: deSearch,
  compare: deCompare,
  pipeline: dePipeline,
  options: deOptions,
};

export const resources = { en, de };
