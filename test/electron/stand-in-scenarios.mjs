// What the stand-in does after the bundle loaded its window, by STAND_IN_SCENARIO: the page's
// load events, the user's clicks and the window's close, at the moments a real desktop would
// have them. Each scenario ends by writing the report (standIn.write) and exiting, or lets the
// bundle exit (app.exit) and the stand-in writes the report then.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, check, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`stand-in: waited ${ms / 1000} s for ${what}`);
    await sleep(20);
  }
}

function fail(standIn, e) {
  standIn.desktop.failure = e instanceof Error ? e.message : String(e);
  standIn.write();
  process.exit(3);
}

/** `--smoke-test`: the page loads (ready-to-show, did-finish-load); the bundle answers and exits. */
export function smoke(standIn, win) {
  standIn.emit(win, 'ready-to-show');
  standIn.emit(win.webContents, 'did-finish-load');
}

/** `--smoke-test` with a page that fails to load. */
export function smokeFailLoad(standIn, win) {
  standIn.emit(win.webContents, 'did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', 'app://batchdesk/index.html');
}

/**
 * The window out of focus while a batch of text items sends through the real engine (to the
 * sandbox the test started): the window is closed mid-way (the answer to the question is
 * STAND_IN_ANSWER), the batch finishes, its notification is clicked.
 */
export async function manners(standIn, win) {
  try {
    const { desktop, handlers } = standIn;
    const trusted = { senderFrame: { url: 'app://batchdesk/index.html' } };
    const items = join(standIn.userData, 'items.txt');
    writeFileSync(items, Array.from({ length: Number(process.env.STAND_IN_ITEMS ?? 40) }, (_, i) => `Item ${i + 1}: summarise this line.`).join('\n'));
    await until('the desktop set-up', () => desktop.menus.length > 0);
    const created = await handlers.get('bd:batches.create')(trusted, { capability: 'text', paths: [items], name: 'Stand-in batch' });
    if (!created.ok) throw new Error(`batches.create: ${JSON.stringify(created.error)}`);
    desktop.batchId = created.result.batch.id;

    await until('progress while sending', () => desktop.progress.some((p) => p >= 0 && p < 1));
    let prevented = false;
    standIn.emit(win, 'close', { preventDefault: () => (prevented = true) });
    desktop.closePrevented = prevented;

    await until('the batch to finish', () => desktop.progress.at(-1) === -1 && desktop.notifications.some((n) => n.shown), 60_000);
    const notice = desktop.notifications.find((n) => n.shown);
    standIn.emit(notice, 'click');
    await until('the window to open the batch', () => desktop.sent.some((s) => s.channel === 'bd-event:app.openBatch'));
    standIn.write();
    process.exit(0);
  } catch (e) {
    fail(standIn, e);
  }
}
