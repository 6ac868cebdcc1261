// The job table's scroll container as @tanstack/react-virtual sees it: the rows' own ("virtual")
// coordinates, whatever the browser lays out (scroll-scale.ts). The virtualizer reads the scroll
// element's scrollTop, scrollHeight and clientHeight directly (its max offset clamps every
// scrollToIndex/scrollToEnd, and its overscroll check compares against it), so translating only in
// observeElementOffset/scrollToFn would leave it clamping virtual targets to the physical range.
// Instead it is given this view of the real element: scrollTop is the virtual offset of the real
// scrollTop, scrollHeight is rows x row height, clientHeight the rows' viewport (without the sticky
// header), and scrollTo() writes the physical position of a virtual one. Below the cap every
// figure is the element's own. The header is above the rows in the same scroll container, so the
// rows' viewport is the client height less the header's, and the real scroll range is the sizer's
// height less that viewport, the same as the virtual range is.
import { observeElementOffset, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { isScaled, maxPhysical, maxVirtual, toPhysical, toVirtual, type ScrollScale } from './scroll-scale';

type Instance = Virtualizer<HTMLDivElement, HTMLDivElement>;
type OffsetCallback = (offset: number, isScrolling: boolean) => void;

export class ScaledScroller {
  private el: HTMLDivElement | null = null;
  private head: HTMLElement | null = null;
  private scale: ScrollScale = { virtualHeight: 0, physicalHeight: 0, viewport: 0 };
  /**
   * The last position written, as written and as the element took it: the element keeps whole (or
   * device) pixels, so reading that scrollTop back gives the virtual offset asked for, exactly, not
   * the nearest one a pixel maps to (the virtualizer checks its writes land where it aimed).
   */
  private written: { physical: number; virtual: number } | null = null;
  private report: OffsetCallback | null = null;
  private scaleChanged = false;

  /** Called after every scroll event the virtualizer has taken in (and after a resize). */
  onScrolled: () => void = () => undefined;
  /** The rows' viewport height when it changes (the table re-renders its sizer with it). */
  onViewport: (height: number) => void = () => undefined;

  attach(el: HTMLDivElement | null, head: HTMLElement | null): void {
    this.el = el;
    this.head = head;
    this.written = null;
  }

  /**
   * The scale the table renders with (called while rendering, before the virtualizer reads it). A
   * change of scaled mapping (rows or viewport changed while scaled) moves the virtual offset of
   * the same scrollTop: syncOffset() then tells the virtualizer.
   */
  setScale(next: ScrollScale): void {
    const s = this.scale;
    if (s.virtualHeight === next.virtualHeight && s.physicalHeight === next.physicalHeight && s.viewport === next.viewport) return;
    if (isScaled(s) || isScaled(next)) {
      this.scaleChanged = true;
      this.written = null;
    }
    this.scale = next;
  }

  /** After the sizer is committed: a scaled mapping that changed re-reports the offset. */
  syncOffset(): void {
    if (!this.scaleChanged) return;
    this.scaleChanged = false;
    this.report?.(this.scrollTop, false);
  }

  get scaled(): boolean {
    return isScaled(this.scale);
  }

  // ---- what the virtualizer reads of its scroll element ------------------------------------

  get ownerDocument(): Document | null {
    return this.el?.ownerDocument ?? null;
  }

  get scrollTop(): number {
    const el = this.el;
    if (!el) return 0;
    const physical = el.scrollTop;
    if (this.written && this.written.physical === physical) return this.written.virtual;
    return toVirtual(this.scale, physical);
  }

  get scrollLeft(): number {
    return this.el?.scrollLeft ?? 0;
  }

  get scrollHeight(): number {
    return this.scale.virtualHeight;
  }

  get clientHeight(): number {
    return this.scale.viewport;
  }

  get scrollWidth(): number {
    return this.el?.scrollWidth ?? 0;
  }

  get clientWidth(): number {
    return this.el?.clientWidth ?? 0;
  }

  /** For the virtualizer's iOS momentum stop (it hides overflow for two frames). */
  get style(): CSSStyleDeclaration | undefined {
    return this.el?.style;
  }

  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: AddEventListenerOptions | boolean): void {
    this.el?.addEventListener(type, listener, options);
  }

  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: EventListenerOptions | boolean): void {
    this.el?.removeEventListener(type, listener, options);
  }

  scrollTo(options: ScrollToOptions): void {
    const el = this.el;
    if (!el || options.top === undefined) return;
    const virtual = Math.min(maxVirtual(this.scale), Math.max(0, options.top));
    const physical = toPhysical(this.scale, virtual);
    el.scrollTo({ top: physical, ...(options.behavior ? { behavior: options.behavior } : {}) });
    // An instant write lands now: remember where, unless the element could not take it (its sizer
    // not yet as tall as the scale says).
    const landed = el.scrollTop;
    this.written =
      options.behavior !== 'smooth' && Math.abs(landed - physical) <= 1 && landed <= maxPhysical(this.scale) ? { physical: landed, virtual } : null;
  }

  // ---- the virtualizer's options -------------------------------------------------------------

  /**
   * getScrollElement: this view, once the real element is there. The virtualizer's type wants an
   * Element; it only uses what this class implements (above), hence the cast.
   */
  element = (): HTMLDivElement | null => (this.el ? (this as unknown as HTMLDivElement) : null);

  /** The rows' viewport: the element's client height less the header, observed for resizes. */
  observeElementRect = (_instance: Instance, cb: (rect: Rect) => void): (() => void) | undefined => {
    const el = this.el;
    if (!el) return undefined;
    const measure = (): void => {
      const height = Math.max(0, el.clientHeight - (this.head?.offsetHeight ?? 0));
      this.onViewport(height);
      cb({ width: el.clientWidth, height });
      this.onScrolled();
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    if (this.head) ro.observe(this.head);
    return () => ro.disconnect();
  };

  /** The library's own scroll observer (it reads scrollTop above), then the table places its rows. */
  observeElementOffset = (instance: Instance, cb: OffsetCallback): (() => void) | undefined => {
    const report: OffsetCallback = (offset, isScrolling) => {
      cb(offset, isScrolling);
      this.onScrolled();
    };
    this.report = report;
    const stop = observeElementOffset(instance, report);
    return () => {
      if (this.report === report) this.report = null;
      stop?.();
    };
  };

  scrollToFn = (offset: number, { adjustments, behavior }: { adjustments?: number; behavior?: ScrollBehavior }): void => {
    this.scrollTo({ top: offset + (adjustments ?? 0), ...(behavior ? { behavior } : {}) });
  };
}
