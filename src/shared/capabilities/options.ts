// Batch options beyond tier, name and budget: one schema each, and which capability takes which
// (the descriptor's `options`). Stored with the batch and fixed into every request body.
import { z } from 'zod';
import { ChannelName } from '../domain';

export const OPTION_NAMES = ['channel', 'voice', 'task', 'instructions', 'labels', 'size', 'record'] as const;
export type OptionName = (typeof OPTION_NAMES)[number];

export const TEXT_TASKS = ['summary', 'reply', 'classify', 'extract'] as const;
export type TextTask = (typeof TEXT_TASKS)[number];
export const CRM_RECORDS = ['contact', 'conversation', 'event'] as const;
export type CrmRecordKind = (typeof CRM_RECORDS)[number];

export const VOICE_NAME_RE = /^[A-Za-z0-9][\w .-]{0,63}$/;
export const VoiceName = z.string().regex(VOICE_NAME_RE, 'a voice name is letters, digits, spaces, ".", "_" or "-" (as published in the panel)');
export const LABEL_RE = /^[\p{L}\p{N}][\p{L}\p{N} _-]{0,39}$/u;
export const ImageSize = z
  .string()
  .regex(/^\d{2,4}x\d{2,4}$/, 'WIDTHxHEIGHT, e.g. 512x512')
  .refine((s) => s.split('x').every((n) => Number(n) >= 16 && Number(n) <= 1024), 'each side from 16 to 1024 pixels');

/** One schema per option, shared by the request schema, the CLI and the New batch screen. */
export const OPTION_SCHEMAS = {
  channel: ChannelName,
  voice: VoiceName,
  task: z.enum(TEXT_TASKS, { message: `one of ${TEXT_TASKS.join(', ')}` }),
  instructions: z.string().trim().min(1).max(4000),
  labels: z
    .array(z.string().trim().regex(LABEL_RE, 'a label is 1 to 40 letters, digits, spaces, "_" or "-"'))
    .min(2, 'classify needs at least two labels')
    .max(50)
    .refine((l) => new Set(l.map((x) => x.toLowerCase())).size === l.length, 'each label once'),
  size: ImageSize,
  record: z.enum(CRM_RECORDS, { message: `one of ${CRM_RECORDS.join(', ')}` }),
} as const satisfies Record<OptionName, z.ZodType>;

/**
 * The options besides the channel as optional fields of a request (a batch's or a pipeline step's):
 * voice (voice calls, text to speech), task, instructions and labels (text; labels with classify),
 * size (image, WIDTHxHEIGHT), record (crm).
 */
export const OPTION_FIELDS = {
  voice: OPTION_SCHEMAS.voice.optional(),
  task: OPTION_SCHEMAS.task.optional(),
  instructions: OPTION_SCHEMAS.instructions.optional(),
  labels: OPTION_SCHEMAS.labels.optional(),
  size: OPTION_SCHEMAS.size.optional(),
  record: OPTION_SCHEMAS.record.optional(),
};

/** What a batch stores besides its channel (a column of its own). */
export const StoredOptions = z.object({
  voice: VoiceName.optional(),
  task: z.enum(TEXT_TASKS).optional(),
  instructions: z.string().optional(),
  labels: z.array(z.string()).optional(),
  size: z.string().optional(),
  record: z.enum(CRM_RECORDS).optional(),
});
export type StoredOptions = z.infer<typeof StoredOptions>;

/** How each option is named on the command line and what it means (usage and errors). */
export const OPTION_HELP: Record<OptionName, { value: string; help: string }> = {
  channel: { value: 'whatsapp|voice|email|NAME', help: 'where to send (default: the messaging_channel setting, whatsapp)' },
  voice: { value: 'NAME', help: 'a voice published in the panel (voice calls, text to speech)' },
  task: { value: TEXT_TASKS.join('|'), help: 'what the text model does with each input (default summary)' },
  instructions: { value: 'TEXT', help: 'extra instructions for the text model' },
  labels: { value: 'a,b,c', help: 'with --task classify: the labels to choose from' },
  size: { value: 'WxH', help: 'image size in pixels, 16 to 1024 a side (default 512x512)' },
  record: { value: CRM_RECORDS.join('|'), help: 'which CRM record each item writes (default contact)' },
};
