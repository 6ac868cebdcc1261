// The few page globals the code run in the page (page.evaluate) uses: the test and bench programs
// compile without lib "dom".
export interface Box {
  top: number;
  bottom: number;
}
export interface El {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): ArrayLike<El>;
}
