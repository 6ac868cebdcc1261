// The window's one icon set (lucide): one icon per capability, job state, batch status and
// navigation entry, defined here once. Icons are decorative: the word beside each one says it.
import {
  AudioLines,
  Ban,
  Binary,
  CalendarClock,
  CircleAlert,
  CircleCheck,
  CircleDashed,
  CircleX,
  Clock,
  Contact,
  Copy,
  Euro,
  FileText,
  FolderSync,
  Hourglass,
  Image,
  KeyRound,
  Lightbulb,
  LoaderCircle,
  MessageSquareText,
  PencilLine,
  Pause,
  Play,
  Plus,
  RotateCcw,
  Rows3,
  ScanText,
  Speech,
  type LucideIcon,
} from 'lucide-react';
import type { Capability, DisplayBatchStatus, JobState } from '../../../shared/domain';

export const CAPABILITY_ICON: Readonly<Record<Capability, LucideIcon>> = {
  transcribe: AudioLines,
  ocr: ScanText,
  channel: MessageSquareText,
  tts: Speech,
  text: FileText,
  image: Image,
  embeddings: Binary,
  crm: Contact,
};

/** A job as the table words it: its state, or `held` (a message kept back on purpose, not retried). */
export type JobLook = JobState | 'held';

export const JOB_STATE_ICON: Readonly<Record<JobLook, LucideIcon>> = {
  queued: Clock,
  running: LoaderCircle,
  retry_wait: RotateCcw,
  held: Hourglass,
  succeeded: CircleCheck,
  failed: CircleX,
  cancelled: Ban,
};

/** A batch as its pill words it, or `scheduled` (not started, with a start time set). */
export type BatchLook = DisplayBatchStatus | 'scheduled';

export const BATCH_STATUS_ICON: Readonly<Record<BatchLook, LucideIcon>> = {
  pending: CircleDashed,
  scheduled: CalendarClock,
  running: Play,
  paused: Pause,
  done: CircleCheck,
  done_with_failures: CircleAlert,
  cancelled: Ban,
};

/** A figure a review corrected (jobs/InvoiceCells.tsx). */
export const CORRECTED_ICON: LucideIcon = PencilLine;

/** An invoice with a value suggested from the user's review of the same supplier (jobs/SuggestedMark.tsx). */
export const SUGGESTION_ICON: LucideIcon = Lightbulb;

/** Copies a value for support (a batch's id). */
export const COPY_ICON: LucideIcon = Copy;

export type NavEntry = 'batches' | 'new' | 'watch' | 'costs' | 'keys';

export const NAV_ICON: Readonly<Record<NavEntry, LucideIcon>> = {
  batches: Rows3,
  new: Plus,
  watch: FolderSync,
  costs: Euro,
  keys: KeyRound,
};

/** An icon beside its word: hidden from assistive technology, sized to the text around it. */
export function Icon({ icon: Glyph, size = 16, className }: { icon: LucideIcon; size?: number; className?: string }) {
  return <Glyph size={size} aria-hidden="true" focusable="false" className={className ? `icon ${className}` : 'icon'} />;
}
