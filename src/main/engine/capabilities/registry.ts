import type { BatchCapability } from '../../../shared/domain';
import { assertNever } from '../../../shared/domain';
import type { CapabilityModule } from './capability';
import { channel } from './channel';
import { ocr } from './ocr';
import { transcribe } from './transcribe';

/** The capability module of a batch; the payload type is checked by its own zod schema at use. */
export function capabilityFor(name: BatchCapability): CapabilityModule<unknown> {
  switch (name) {
    case 'transcribe':
      return transcribe as CapabilityModule<unknown>;
    case 'ocr':
      return ocr as CapabilityModule<unknown>;
    case 'channel':
      return channel as CapabilityModule<unknown>;
    default:
      return assertNever(name, 'capability');
  }
}
