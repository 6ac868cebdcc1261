// A channel's name: its own module, so that the option records can check it without reaching the
// domain vocabulary that is derived from the capability catalog.
import { z } from 'zod';

/** A channel's path segment (`/v1/channels/{channel}`): the messaging app's lowercase name, voice, email. */
export const CHANNEL_NAME_RE = /^[a-z][a-z0-9_-]{1,31}$/;
export const CHANNEL_RULE = 'a channel is a lowercase name such as whatsapp, voice or email (2 to 32 letters, digits, "-" or "_")';
export const ChannelName = z.string().regex(CHANNEL_NAME_RE, CHANNEL_RULE);
