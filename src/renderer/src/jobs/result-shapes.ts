// The stored result of a job, per capability (JobDetail.result is unknown in the contract).
import { z } from 'zod';

export const OcrResult = z.object({
  text: z.string(),
  pages: z.array(z.object({ page: z.number(), text: z.string() })).optional(),
  fields: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).optional(),
});

export const TranscribeResult = z.object({
  text: z.string(),
  language: z.string().nullable().optional(),
  duration_seconds: z.number().nullable().optional(),
});

export const ChannelResult = z.object({
  message_id: z.string().nullable().optional(),
  status: z.string().nullable().optional(),
});

export const INVOICE_FIELDS = [
  ['invoice_number', 'Invoice number'],
  ['invoice_date', 'Invoice date'],
  ['vendor', 'Vendor'],
  ['total', 'Total'],
  ['currency', 'Currency'],
] as const;
