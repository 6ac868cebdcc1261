// What a result view may put into the job dialog around it: its actions into the dialog's footer,
// which stays in view however far the dialog is scrolled, and a review's status into the header.
import { createContext } from 'react';
import type { ReviewStatus } from '../results/review-status';

export interface JobDialogSlots {
  /** The footer element (null until it is mounted, or outside the dialog: actions stay in place). */
  footer: HTMLElement | null;
  /** The review's status as the header says it; null: the view says nothing (the header reads the job). */
  setReviewStatus(status: ReviewStatus | null): void;
}

export const JobDialogContext = createContext<JobDialogSlots>({ footer: null, setReviewStatus: () => undefined });
