// Waiting on what a test observes (never on a timing bound): a loaded machine only makes it later.
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `pred` holds; gives up inside the test's timeout, naming what it waited for. */
export async function until(what: string, pred: () => boolean, ms = 50_000, stepMs = 50): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(stepMs);
  }
}
