// Which kind of channel a name is: it decides a message's rate item and its recipient's form.

export type ChannelKind = 'messaging' | 'voice' | 'email';

/** `voice` and `email` are fixed channel names; any other name is the messaging app (A1). */
export function channelKindOf(channel: string): ChannelKind {
  if (channel === 'voice') return 'voice';
  if (channel === 'email') return 'email';
  return 'messaging';
}
