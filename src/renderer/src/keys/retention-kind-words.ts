// What retention deletes, by kind, as the keys catalogue names it (the log and a run's list alike).
import type { RetentionLogEntryView } from '../../../shared/contract';

export const RETENTION_KIND_KEYS = {
  output: 'retention.kind.output',
  upload: 'retention.kind.upload',
  original: 'retention.kind.original',
  export: 'retention.kind.export',
  result: 'retention.kind.result',
} as const satisfies Record<RetentionLogEntryView['kind'], string>;
