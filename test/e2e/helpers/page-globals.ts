// The few browser globals the code run inside the page uses (page.evaluate callbacks), typed here:
// the test program compiles against Node's lib, and adding lib "dom" to it would change the
// types of fetch and friends for every other test. Inside a callback write
//   const w = globalThis as unknown as PageWindow;
// (a type-only import: nothing of this module reaches the page).

export interface PageElement {
  tagName: string;
  id: string;
  className: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  getBoundingClientRect(): { top: number; bottom: number; left: number; right: number };
}

export interface PageStyle {
  position: string;
  outlineStyle: string;
  outlineWidth: string;
}

export interface PageSocket {
  onopen: (() => void) | null;
  onerror: (() => void) | null;
  close(): void;
}

export interface PageWindow {
  document: {
    activeElement: PageElement | null;
    body: PageElement;
    cookie: string;
    documentElement: { scrollHeight: number; scrollWidth: number };
    scrollingElement: { scrollHeight: number; scrollWidth: number } | null;
    getElementById(id: string): PageElement | null;
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): ArrayLike<PageElement>;
    elementFromPoint(x: number, y: number): PageElement | null;
  };
  location: { hash: string };
  innerWidth: number;
  innerHeight: number;
  getComputedStyle(el: PageElement): PageStyle;
  CSS: { escape(text: string): string };
  DataTransfer: new () => { items: { add(file: File): unknown } };
  WebSocket: new (url: string) => PageSocket;
}
