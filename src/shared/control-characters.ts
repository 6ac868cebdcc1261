// Control characters in text that came from outside (an API's answer, a file's name, a CSV cell).
// A terminal obeys them: ESC [2J clears the screen, OSC 52 puts a command on the clipboard, OSC 8
// shows a link under other words, a CR lets "All items sent." overwrite the line. So such text
// is made inert where it enters (answers' words, file names, imported text) and again where text
// leaves (the terminal, CSV/TXT/subtitle exports). Line breaks and tabs are kept: they move the
// cursor on, never back over what was written.

/** C0 controls but tab and line feed, DEL, and C1 controls (a terminal reads U+009B as CSI). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** The same, but CR too is kept (a CSV's record ends, a Windows line end in imported text). */
const CONTROL_BUT_CR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const CONTROLS_BUT_CR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Whether the text holds a control character a terminal would act on. */
export function hasControls(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * Text for display: a Windows line end becomes a line break, every other control character is
 * written as its escape (`\u001b`), visible and inert, and valid inside a JSON string (so `--json`
 * output stays JSON that reads back the same). Text without any is returned as it is.
 */
export function escapeControls(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** DEL and C1 controls, which JSON.stringify leaves as they are (it escapes C0 itself). */
const JSON_RAW_CONTROLS = /[\u007f-\u009f]/g;

/**
 * JSON text (JSON.stringify's output) with DEL and the C1 controls written as `\u0080`..: the
 * same value read back, but a terminal showing the file (`cat`) is not driven by U+009B (CSI).
 * Outside a string they cannot occur in JSON, so every one is inside a string and may be escaped.
 */
export function jsonInert(json: string): string {
  return json.replace(JSON_RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Imported text (a CSV or TXT file), which is also what is sent: control characters are dropped,
 * as a phone or a model would not show them either; tabs and line ends stay (the parser needs CR).
 */
export function dropControls(text: string): string {
  return CONTROL_BUT_CR.test(text) ? text.replace(CONTROLS_BUT_CR, '') : text;
}
