// POST /v1/transcribe: multipart `file` (+ `tier`) -> {text, language, duration_seconds, segments} (A7).
// Billed per audio second measured exactly like the client measures it (shared/media). A WAV it
// cannot decode is refused with 422 unreadable_audio (A3), unbilled, instead of an invented transcript.
// The sandbox does not listen: a recording that carries its script (the samples' ICMT) gets that
// script; any other gets sentences from a call corpus, marked made up (A21).
import { audioSeconds, sniffMedia, wavDurationSeconds } from '../../shared/media';
import { invalid, jsonOutcome } from '../http';
import { corpusTranscript, detectLanguage, transcriptSegments } from '../results';
import { MADE_UP } from '../made-up';
import { tierOf } from './common';
import { uploadRoute } from './upload-route';

export const transcribeRoute = uploadRoute(/^\/v1\/transcribe$/, (upload, file) => {
  const tier = tierOf(upload.fields.tier);
  const media = sniffMedia(file.head, file.filename);
  if (!media || media.kind !== 'audio') {
    throw invalid(415, 'unsupported_media_type', 'Not a supported audio file (wav, mp3, m4a, ogg, opus, flac, webm).');
  }
  const exact = media.ext === 'wav' ? wavDurationSeconds(file.head, file.size) : null;
  // A WAV held whole whose fmt and data chunks cannot be read (or hold no audio) is refused, as a
  // real service refuses audio it cannot decode (A3); only the first 64 KiB of a larger one are kept,
  // and its fmt and data may lie beyond them, so it is estimated as before.
  const whole = file.size <= file.head.length;
  if (media.ext === 'wav' && (exact === 0 || (exact === null && whole))) {
    const why = exact === 0 ? 'its data chunk holds no audio' : 'it has no readable format (fmt) and audio data (data) chunks; it may be cut short';
    throw invalid(422, 'unreadable_audio', `The audio could not be decoded: ${why}.`);
  }
  const { seconds } = audioSeconds(file.head, file.size);
  // Our sample recordings carry their script in LIST/INFO ICMT; anything else gets corpus text.
  const script = file.embeddedText;
  const text = script ?? corpusTranscript(file.sha256);
  const duration = exact !== null ? exact : seconds;
  return {
    charge: { capability: 'transcribe', channel: null, tier, units: seconds },
    perform: () =>
      jsonOutcome(200, {
        text,
        language: detectLanguage(text),
        // Unrounded: the duration a client sees is the one billed (rounded up per file).
        duration_seconds: duration,
        // The script's lines (with their speaker) or the text's sentences, spread over the audio.
        segments: transcriptSegments(text, duration),
        ...(script === null ? MADE_UP : {}),
      }),
  };
});
