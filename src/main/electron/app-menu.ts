// The application menu: Electron's usual menus (edit, view, window) plus "Install Command Line
// Tool…" where the app must put `batchdesk` on the PATH itself (macOS, Windows; the deb does it on
// Linux). Pure: main.ts builds it with Menu.buildFromTemplate.
import type { MenuItemConstructorOptions } from 'electron';

export const INSTALL_TOOL_LABEL = 'Install Command Line Tool…';

export function appMenuTemplate(f: { platform: NodeJS.Platform; appName: string; installCommandLineTool: () => void }): MenuItemConstructorOptions[] {
  const install: MenuItemConstructorOptions = { label: INSTALL_TOOL_LABEL, click: () => f.installCommandLineTool() };
  const common: MenuItemConstructorOptions[] = [{ role: 'editMenu' }, { role: 'viewMenu' }, { role: 'windowMenu' }];
  if (f.platform === 'darwin') {
    return [
      {
        label: f.appName,
        submenu: [
          { role: 'about' },
          { type: 'separator' },
          install,
          { type: 'separator' },
          { role: 'services' },
          { type: 'separator' },
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          { type: 'separator' },
          { role: 'quit' },
        ],
      },
      ...common,
    ];
  }
  return [{ label: 'File', submenu: [...(f.platform === 'win32' ? [install, { type: 'separator' } as const] : []), { role: 'quit' }] }, ...common];
}
