// The window's webPreferences: Electron's security checklist in one place, checked by a test
// against the built bundle.
import type { WebPreferences } from 'electron';

export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    // Middle-click would open links in a new window, around the window-open handler.
    disableBlinkFeatures: 'Auxclick',
  };
}

export const APP_ORIGIN = 'app://batchdesk';

/** External links open in the user's browser, only over https, never file: or custom schemes. */
export function vettedExternalUrl(raw: string): string | null {
  try {
    const u = new URL(raw);
    return u.protocol === 'https:' && u.username === '' && u.password === '' ? u.toString() : null;
  } catch {
    return null;
  }
}
