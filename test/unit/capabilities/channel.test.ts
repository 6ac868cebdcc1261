import { describe, expect, it } from 'vitest';
import { channel, type ChannelPayload } from '../../../src/main/engine/capabilities/channel';

const payload: ChannelPayload = { to: '+442079460001', text: 'Hello', subject: 'Order', row: 2, fields: {} };

describe('channel request bodies', () => {
  it('sends {to, text} to the messaging app, adds subject for email and voice for calls', () => {
    expect(JSON.parse(channel.requestBody(payload, { tier: 'standard', channel: 'whatsapp', options: {} }) ?? '')).toEqual({
      to: '+442079460001',
      text: 'Hello',
    });
    expect(JSON.parse(channel.requestBody(payload, { tier: 'standard', channel: 'email', options: {} }) ?? '')).toEqual({
      to: '+442079460001',
      text: 'Hello',
      subject: 'Order',
    });
    expect(JSON.parse(channel.requestBody(payload, { tier: 'standard', channel: 'voice', options: { voice: 'Amira' } }) ?? '')).toEqual({
      to: '+442079460001',
      text: 'Hello',
      voice: 'Amira',
    });
    expect(JSON.parse(channel.requestBody(payload, { tier: 'standard', channel: 'whatsapp', options: {} }) ?? '')).toEqual({
      to: '+442079460001',
      text: 'Hello',
    });
  });
  it('writes the bytes JSON.stringify writes for the same object, whatever the text holds', () => {
    const texts = ['Hello', 'say "hi"\\ back', 'line\nbreak\ttab\u0001', 'Grüße 🙂 \u2028', 'lone \ud800 half', '</script>'];
    for (const text of texts) {
      const p = { ...payload, text, subject: `Re: ${text}` };
      expect(channel.requestBody(p, { tier: 'standard', channel: 'whatsapp', options: {} })).toBe(JSON.stringify({ to: p.to, text }));
      expect(channel.requestBody(p, { tier: 'standard', channel: 'email', options: {} })).toBe(JSON.stringify({ to: p.to, text, subject: p.subject }));
      expect(channel.requestBody(p, { tier: 'standard', channel: 'voice', options: { voice: text } })).toBe(JSON.stringify({ to: p.to, text, voice: text }));
    }
  });
  it('posts to the channel path with the stored body and the idempotency key', () => {
    const req = channel.buildRequest(
      payload,
      { idempotencyKey: 'bd-1', requestBody: '{"to":"+442079460001","text":"Hello"}', output: null },
      { tier: 'standard', channel: 'voice', options: {} },
    );
    expect(req).toMatchObject({
      method: 'POST',
      path: '/channels/voice',
      idempotencyKey: 'bd-1',
      credential: 'channel',
      body: { kind: 'json', text: '{"to":"+442079460001","text":"Hello"}' },
    });
  });
});
