// Deterministic fake content: the same input always gives the same output, shaped like what a
// real service returns. Randomness comes only from SHA-256 of the input.
import { createHash } from 'node:crypto';
import { encodePng } from './png';
import { encodeWav } from './wav';

export function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Deterministic byte stream seeded by a string: SHA-256 in counter mode. */
export function byteStream(seed: string): () => number {
  let block: Buffer = Buffer.alloc(0);
  let counter = 0;
  let i = 0;
  return () => {
    if (i >= block.length) {
      block = sha256(`${seed}\0${counter++}`);
      i = 0;
    }
    return block[i++] ?? 0;
  };
}

const CALL_CORPUS = [
  'Hello, thank you for calling, how can I help you today?',
  'I am calling about the invoice I received last week.',
  'The delivery was supposed to arrive on Tuesday but it has not come yet.',
  'Could you please confirm the order number for me?',
  'Let me check that in our system, it will only take a moment.',
  'I would like to change the delivery address to our new office.',
  'The payment was made by bank transfer on the fifteenth.',
  'We can offer you a replacement or a full refund, whichever you prefer.',
  'Please send me the updated quote by email.',
  'Our team will call you back tomorrow morning before ten.',
  'I have noted your request and opened a ticket for it.',
  'Is there anything else I can help you with?',
  'The technician will visit between two and four in the afternoon.',
  'We need a copy of the signed delivery note to process the claim.',
  'Your subscription renews automatically at the end of the month.',
  'I can confirm that the credit note has been issued.',
  'Thank you for your patience, have a nice day.',
  'The product is back in stock and ships within two working days.',
  'Could you spell your last name for me, please?',
  'We have applied the discount to your next invoice.',
];

/** A transcript picked from the call corpus by the file's hash: 3 to 6 sentences. */
export function corpusTranscript(contentSha256: string): string {
  const next = byteStream(`transcript:${contentSha256}`);
  const count = 3 + (next() % 4);
  const out: string[] = [];
  for (let k = 0; k < count; k++) out.push(CALL_CORPUS[next() % CALL_CORPUS.length] ?? '');
  return out.join(' ');
}

export interface SandboxSegment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

/** "Agent: ..." / "Customer: ...": a line of a sample recording's script (scripts/make-samples.ts). */
const SCRIPT_LINE = /^(Agent|Customer):\s*(.*)$/;

/**
 * The transcript cut into timed segments over `duration` seconds. A script whose every line names
 * its speaker ("Agent: ...", "Customer: ...") gives one segment per line with that speaker; any other
 * text one segment per sentence, no speaker. Each takes a share of the duration proportional to its
 * length; times in whole milliseconds, rounded down, so the last one ends within the duration.
 */
export function transcriptSegments(text: string, duration: number): SandboxSegment[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const script = lines.length > 0 && lines.every((l) => SCRIPT_LINE.test(l));
  const parts: { text: string; speaker?: string }[] = script
    ? lines.map((l) => {
        const m = SCRIPT_LINE.exec(l);
        return { speaker: m?.[1] ?? '', text: (m?.[2] ?? '').trim() };
      })
    : text
        .replace(/\s+/g, ' ')
        .trim()
        .split(/(?<=[.!?\u2026])\s+/)
        .filter((t) => t !== '')
        .map((t) => ({ text: t }));
  const weights = parts.map((p) => Math.max(1, [...p.text].length));
  const total = weights.reduce((a, b) => a + b, 0);
  const at = (chars: number): number => Math.floor((Math.max(0, duration) * chars * 1000) / total) / 1000;
  let before = 0;
  return parts.map((p, i) => {
    const start = at(before);
    before += weights[i] ?? 1;
    return { start, end: at(before), text: p.text, ...(p.speaker !== undefined ? { speaker: p.speaker } : {}) };
  });
}

const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'you', 'is', 'to', 'of', 'for', 'please', 'thank', 'with'],
  es: ['el', 'la', 'que', 'de', 'los', 'por', 'gracias', 'para', 'con', 'una'],
  de: ['der', 'die', 'und', 'ist', 'nicht', 'ich', 'sie', 'das', 'mit', 'bitte'],
  fr: ['le', 'la', 'les', 'et', 'est', 'vous', 'pour', 'merci', 'une', 'avec'],
  it: ['il', 'che', 'di', 'per', 'non', 'una', 'grazie', 'sono', 'con', 'della'],
  pt: ['o', 'que', 'não', 'uma', 'para', 'com', 'obrigado', 'você', 'os', 'está'],
  nl: ['de', 'het', 'een', 'en', 'niet', 'ik', 'u', 'dank', 'voor', 'met'],
};

/** Guess of the spoken language by stop-word counts; "en" when nothing matches. */
export function detectLanguage(text: string): string {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best = 'en';
  let bestScore = 0;
  for (const [lang, list] of Object.entries(STOPWORDS)) {
    const set = new Set(list);
    const score = words.filter((w) => set.has(w)).length;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}

export { invoiceFields, normaliseAmount, type InvoiceFields } from './invoice-extract';

/**
 * classify with the caller's labels: the first label named (or whose stem appears) in the text,
 * else the sandbox's own topic when it is one of them, else a label chosen by the text's hash.
 */
export function classifyText(input: string, labels: readonly string[] | undefined): string {
  const own = textResult(input, 'classify', 'standard');
  if (!labels || labels.length === 0) return own;
  const lower = input.toLowerCase();
  const named = labels.find((l) => lower.includes(l.toLowerCase().slice(0, Math.max(4, l.length - 2))));
  if (named) return named;
  const same = labels.find((l) => l.toLowerCase() === own);
  if (same) return same;
  return labels[sha256(`label:${input}`).readUInt16BE(0) % labels.length] ?? own;
}

/** /v1/text: a reply, summary or classification depending on `task`. */
export function textResult(input: string, task: string | undefined, tier: string): string {
  const clean = input.replace(/\s+/g, ' ').trim();
  const firstSentence = (/^[^.!?]*[.!?]?/.exec(clean)?.[0] ?? clean).slice(0, 200);
  switch ((task ?? 'reply').toLowerCase()) {
    case 'summary':
    case 'summarize':
    case 'summarise':
      return `Summary (${tier}): ${firstSentence}${clean.length > firstSentence.length ? ' [...]' : ''}`;
    case 'classify':
    case 'classification': {
      const labels: Array<[string, RegExp]> = [
        ['billing', /invoice|payment|refund|charge|price|bill/i],
        ['delivery', /deliver|shipping|shipment|parcel|arrive/i],
        ['support', /error|broken|help|problem|issue|not work/i],
        ['sales', /quote|offer|buy|order|discount/i],
      ];
      return labels.find(([, re]) => re.test(clean))?.[0] ?? 'other';
    }
    default: {
      const next = byteStream(`text:${tier}:${clean}`);
      const openers = ['Thank you for your message.', 'Thanks for getting in touch.', 'We appreciate you reaching out.'];
      const closers = ['We will get back to you shortly.', 'A colleague will follow up today.', 'Let us know if there is anything else.'];
      return `${openers[next() % openers.length] ?? ''} Regarding "${firstSentence.slice(0, 80)}": ${closers[next() % closers.length] ?? ''}`;
    }
  }
}

const TTS_RATE = 8000;

/** A short tone whose length follows the text (60 ms per character, 0.5 s to 120 s). */
export function ttsWav(text: string, voice: string): Buffer {
  const seconds = Math.min(120, Math.max(0.5, [...text].length * 0.06));
  const samples = new Int16Array(Math.round(seconds * TTS_RATE));
  const freq = 180 + (sha256(`voice:${voice}`).readUInt16BE(0) % 240);
  for (let i = 0; i < samples.length; i++) {
    // A gentle envelope per "syllable" so it sounds like speech rhythm rather than a beep.
    const envelope = 0.5 + 0.5 * Math.sin((2 * Math.PI * i) / (TTS_RATE * 0.18));
    samples[i] = Math.round(8000 * envelope * Math.sin((2 * Math.PI * freq * i) / TTS_RATE));
  }
  return encodeWav(samples, TTS_RATE, text);
}

/** A smooth colour field seeded by the prompt, with the prompt in a tEXt Description chunk. */
export function imagePng(prompt: string, width: number, height: number): Buffer {
  const h = sha256(`image:${prompt}`);
  const [r0, g0, b0, r1, g1, b1] = [h[0] ?? 0, h[1] ?? 0, h[2] ?? 0, h[3] ?? 0, h[4] ?? 0, h[5] ?? 0];
  const waves = 1 + ((h[6] ?? 0) % 5);
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / Math.max(1, width - 1) + y / Math.max(1, height - 1)) / 2;
      const s = 0.5 + 0.5 * Math.sin(2 * Math.PI * waves * (x / width) + (y / height) * Math.PI);
      const o = (y * width + x) * 3;
      rgb[o] = Math.round(r0 + (r1 - r0) * t) * 0.8 + 50 * s;
      rgb[o + 1] = Math.round(g0 + (g1 - g0) * t) * 0.8 + 50 * s;
      rgb[o + 2] = Math.round(b0 + (b1 - b0) * t) * 0.8 + 50 * s;
    }
  }
  return encodePng(width, height, rgb, { Description: prompt.replace(/[^\x20-\x7e]/g, '?').slice(0, 1000), Software: 'batchdesk sandbox' });
}
