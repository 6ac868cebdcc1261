// The privacy tests' one way in: redact a text for some kinds and read back what came out.
import type { CountryCode } from 'libphonenumber-js';
import { redact } from '../../../src/main/engine/privacy/personal-data';
import type { PersonalDataKind } from '../../../src/shared/privacy-kinds';

export function redacted(text: string, kinds: readonly PersonalDataKind[], country?: CountryCode): string {
  return redact(text, { kinds, country }).text;
}
