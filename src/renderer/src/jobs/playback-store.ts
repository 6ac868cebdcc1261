// The job dialog's recording player, shared by its two panes: the source pane registers its
// <audio> (JobSourceView), the result pane's transcript segments play it from their start
// (result-views.tsx). One player at a time, known by its job, so a segment never seeks another
// job's recording.
import { create } from 'zustand';

interface Player {
  jobId: number;
  audio: HTMLAudioElement;
}

interface PlaybackState {
  player: Player | null;
  /** Registers (an element) or forgets (null) the recording of a job. */
  attach(jobId: number, audio: HTMLAudioElement | null): void;
  /** Plays the job's recording from `seconds`; false when it has none shown. */
  playFrom(jobId: number, seconds: number): boolean;
}

export const usePlayback = create<PlaybackState>()((set, get) => ({
  player: null,
  attach(jobId, audio) {
    const current = get().player;
    if (audio !== null) set({ player: { jobId, audio } });
    else if (current?.jobId === jobId) set({ player: null });
  },
  playFrom(jobId, seconds) {
    const p = get().player;
    if (p === null || p.jobId !== jobId) return false;
    p.audio.currentTime = seconds;
    // Playing may be refused (no audio device, a browser policy): the position is set either way.
    void p.audio.play().catch(() => undefined);
    return true;
  },
}));
