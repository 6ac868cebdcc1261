// WAV writer for /v1/tts: 16-bit mono PCM with the spoken text in a LIST/INFO ICMT chunk, so a
// transcription of the sandbox's own audio returns the text it was made from.

function infoList(comment: string): Buffer {
  const text = Buffer.from(`${comment}\0`, 'utf8');
  const pad = text.length % 2;
  const sub = Buffer.alloc(8 + text.length + pad);
  sub.write('ICMT', 0, 'latin1');
  sub.writeUInt32LE(text.length, 4);
  text.copy(sub, 8);
  const list = Buffer.alloc(12);
  list.write('LIST', 0, 'latin1');
  list.writeUInt32LE(4 + sub.length, 4);
  list.write('INFO', 8, 'latin1');
  return Buffer.concat([list, sub]);
}

export function encodeWav(samples: Int16Array, sampleRate: number, comment: string | null): Buffer {
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'latin1');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8); // PCM
  fmt.writeUInt16LE(1, 10); // mono
  fmt.writeUInt32LE(sampleRate, 12);
  fmt.writeUInt32LE(sampleRate * 2, 16); // byte rate
  fmt.writeUInt16LE(2, 20); // block align
  fmt.writeUInt16LE(16, 22); // bits per sample
  const list = comment ? infoList(comment) : Buffer.alloc(0);
  const data = Buffer.alloc(8 + samples.length * 2);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(samples.length * 2, 4);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(samples[i] ?? 0, 8 + i * 2);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + fmt.length + list.length + data.length, 4);
  riff.write('WAVE', 8, 'latin1');
  return Buffer.concat([riff, fmt, list, data]);
}
