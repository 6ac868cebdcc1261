// Where the command line's text leaves for the terminal, once for every command: control
// characters in it (an API's error message, a file's name, a CSV cell) are written as visible
// escapes (shared/control-characters.ts), so nothing printed can clear the screen, set the
// clipboard, show a disguised link or overwrite a line. Batchdesk's own terminal control (the
// redrawn progress line) goes through `redrawLine`, the one way to write a control sequence.
import { escapeControls } from '../../shared/control-characters';

export interface TextOut {
  /** Writes text; its control characters but line breaks and tabs are written escaped. */
  write(text: string): boolean;
  readonly isTTY: boolean;
  /** The terminal's width, when it is one. */
  readonly columns: number | undefined;
  /** On a terminal: the current line cleared and `text` (made safe as by write) written in its place. */
  redrawLine(text: string): void;
}

export function textOut(stream: NodeJS.WriteStream): TextOut {
  return {
    write: (text) => stream.write(escapeControls(text)),
    get isTTY() {
      return stream.isTTY === true;
    },
    get columns() {
      return stream.columns;
    },
    redrawLine: (text) => void stream.write(`\r\x1b[2K${escapeControls(text)}`),
  };
}
