// What an import loads at its first use (the phone number parser, time zones, the Intl data behind
// them: 30-100 ms, in one piece each) is loaded before the engine process says it is ready, while
// the window is still loading its page, instead of half way through the user's first import, where
// it would hold up the window's calls. The command line keeps loading them on first use.
// Numbers in English too: a batch's default name ("... (100,000 recordings)") loaded ICU's number
// data at the end of the first import, 30-80 ms in one piece.
import { countryZonesLib } from '../../engine/load-on-use';
import { normalizePhone } from '../../engine/messaging/recipient';
import { localZone } from '../../engine/messaging/recipient-zone';

export function warmUp(): void {
  normalizePhone('+44 20 7946 0000');
  localZone();
  countryZonesLib();
  (100_000).toLocaleString('en');
}
