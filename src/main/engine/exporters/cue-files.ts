// A timed transcript as subtitle files: SubRip (.srt) and WebVTT (.vtt). Both are written strictly:
// cues in order of their start, times in whole milliseconds with two-digit (or more) hours, a cue
// never shorter than 1 ms (WebVTT wants its end after its start), no blank line inside a cue (it
// would end it), no "-->" in cue text (it would read as a timing line) and no markup a player would
// render (SRT's <b> or {\an8}; WebVTT's tags are escaped as its spec says). A cue without text is
// left out. The speaker is a "Agent: " prefix in SRT, which has no voices, and a <v Agent> voice
// span in WebVTT. A note (a made-up transcript says so) is a NOTE block in WebVTT; SRT has no
// comments, so it is the first cue's first line, in brackets, where a viewer sees it.
import type { Cue } from '../../../shared/capabilities/descriptor';
import { escapeControls } from '../../../shared/control-characters';

interface Timed {
  startMs: number;
  endMs: number;
  lines: string[];
  speaker: string | null;
}

/** `HH:MM:SS` and the milliseconds, joined by `sep` (SRT: ",", WebVTT: "."). */
function clock(ms: number, sep: ',' | '.'): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w: number): string => String(n).padStart(w, '0');
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${sep}${pad(ms % 1000, 3)}`;
}

export const srtTime = (seconds: number): string => clock(toMs(seconds), ',');
export const vttTime = (seconds: number): string => clock(toMs(seconds), '.');

function toMs(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 0;
}

/** The cues as they are written: with text, ordered by start (stably), each at least 1 ms long. */
function timed(cues: readonly Cue[]): Timed[] {
  const out: Timed[] = [];
  for (const c of cues) {
    const lines = c.text
      .split(/\r\n|\r|\n|\u2028|\u2029/)
      // The API's words: control characters made inert (a subtitle file is also read with `cat`).
      .map((l) => escapeControls(l.replace(/\s+/g, ' ').trim()))
      .filter((l) => l !== '');
    if (lines.length === 0) continue;
    const startMs = toMs(c.start);
    const speaker = escapeControls(c.speaker?.replace(/\s+/g, ' ').trim() ?? '') || null;
    out.push({ startMs, endMs: Math.max(startMs + 1, toMs(c.end)), lines, speaker });
  }
  return out
    .map((t, i) => ({ t, i }))
    .sort((a, b) => a.t.startMs - b.t.startMs || a.i - b.i)
    .map(({ t }) => t);
}

/**
 * SubRip cue text. SRT has no escapes, so look-alikes stand in: an arrow for "-->" (no text line
 * reads as a timing), angle quotes for < and > (players render <b>, <i>, <font ...> as markup) and
 * full-width braces for { and } (players run {\an8}-style override tags).
 */
function srtText(text: string): string {
  return text.replace(/-->/g, '\u2192').replace(/</g, '\u2039').replace(/>/g, '\u203a').replace(/\{/g, '\uff5b').replace(/\}/g, '\uff5d');
}

/** SubRip: numbered cues, `00:00:01,500 --> 00:00:04,000`, a blank line after each. */
export function srtOf(cues: readonly Cue[], note: string | null = null): string {
  return timed(cues)
    .map((c, i) => {
      const lines = c.lines.map(srtText);
      if (c.speaker !== null) lines[0] = `${srtText(c.speaker)}: ${lines[0] ?? ''}`;
      if (i === 0 && note !== null) lines.unshift(`[${srtText(note)}]`);
      return `${i + 1}\n${clock(c.startMs, ',')} --> ${clock(c.endMs, ',')}\n${lines.join('\n')}\n`;
    })
    .join('\n');
}

/** WebVTT cue text: &, < and > as character references (so "-->" is "--&gt;"). */
function vttEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** WebVTT: the `WEBVTT` header, then cues `00:00:01.500 --> 00:00:04.000`, the speaker as a voice span. */
export function vttOf(cues: readonly Cue[], note: string | null = null): string {
  const blocks = timed(cues).map((c) => {
    const text = c.lines.map(vttEscape).join('\n');
    const body = c.speaker !== null ? `<v ${vttEscape(c.speaker)}>${text}</v>` : text;
    return `${clock(c.startMs, '.')} --> ${clock(c.endMs, '.')}\n${body}\n`;
  });
  // A NOTE block may not hold "-->".
  const head = note === null ? [] : [`NOTE ${note.replace(/-->/g, '\u2192')}\n`];
  return ['WEBVTT\n', ...head, ...blocks].join('\n');
}
