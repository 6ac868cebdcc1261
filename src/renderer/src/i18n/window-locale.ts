// The window tells the engine its locale once per session: where the engine's computer names no
// region (a server on LANG=C behind the browser host), the window's region ("de-DE" -> DE) is the
// country of phone numbers written without a country code (docs/privacy.md).
import type { SettingsView } from '../../../shared/contract';
import { WindowLocale } from '../../../shared/phone-country';
import { client } from '../client';
import { formatLocale } from './locale';

let sent: Promise<SettingsView | null> | null = null;

/** Settled once the engine has the window's locale (null: it refused it, a read-only view); read the settings after it. */
export function reportWindowLocale(): Promise<SettingsView | null> {
  if (sent !== null) return sent;
  const tag = WindowLocale.safeParse(formatLocale());
  sent = tag.success
    ? client()
        .call('settings.set', { windowLocale: tag.data })
        .catch((e: unknown) => {
          console.warn('The engine did not take the window locale', e);
          return null;
        })
    : Promise.resolve(null);
  return sent;
}
