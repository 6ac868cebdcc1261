// Keys are read from standard input (piped or typed without echo), never from argv, so they do
// not end up in shell history or the process list.
import type { TextOut } from './terminal-out';
export async function readSecret(stdin: NodeJS.ReadStream, stderr: Pick<TextOut, 'write'>, prompt: string): Promise<string> {
  if (stdin.isTTY) {
    stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    return new Promise((resolve, reject) => {
      let value = '';
      const onData = (ch: string): void => {
        for (const c of ch) {
          if (c === '\r' || c === '\n') {
            cleanup();
            stderr.write('\n');
            resolve(value);
            return;
          }
          if (c === '\u0003') {
            cleanup();
            reject(new Error('cancelled'));
            return;
          }
          if (c === '\u007f') value = value.slice(0, -1);
          else value += c;
        }
      };
      const cleanup = (): void => {
        stdin.setRawMode(false);
        stdin.pause();
        stdin.off('data', onData);
      };
      stdin.on('data', onData);
    });
  }
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8').trim();
}
