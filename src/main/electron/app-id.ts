// The app's id, as electron-builder.yml's appId gives it to the installers (a test keeps the two
// alike): Windows shows an app's notifications only under the id its installer gave its shortcut.
export const APP_ID = 'app.batchdesk.desktop';
