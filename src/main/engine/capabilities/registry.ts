// Every capability's engine module, by name. The compiler refuses a capability without one.
import type { BatchCapability } from '../../../shared/domain';
import type { CapabilityModule } from './capability';
import { channel } from './channel';
import { crm } from './crm';
import { embeddings } from './embeddings';
import { image } from './image';
import { ocr } from './ocr';
import { text } from './text';
import { transcribe } from './transcribe';
import { tts } from './tts';

const MODULES = { transcribe, ocr, channel, tts, text, image, embeddings, crm } satisfies Record<BatchCapability, unknown>;

/** The capability module of a batch; the payload type is checked by its own zod schema at use. */
export function capabilityFor(name: BatchCapability): CapabilityModule<unknown> {
  return MODULES[name] as CapabilityModule<unknown>;
}
