// One icon per capability, job state, batch status and navigation entry; each a real lucide
// component, distinct from its neighbours, rendered hidden from assistive technology.
import { beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, DisplayBatchStatus, JOB_STATES } from '../../../src/shared/domain';

// The icon module and React are loaded at run time: the Node-side type check (tsconfig.node.json)
// has no JSX and no DOM, so these tests see them only through the small shapes below.
const ICONS_MODULE = '../../../src/renderer/src/components/icons';
const REACT = 'react';
const REACT_SERVER = 'react-dom/server';

type IconRecord = Record<string, unknown>;
interface IconsModule {
  CAPABILITY_ICON: IconRecord;
  JOB_STATE_ICON: IconRecord;
  BATCH_STATUS_ICON: IconRecord;
  NAV_ICON: IconRecord;
  Icon: unknown;
}

let icons: IconsModule;
let render: (icon: unknown) => string;

beforeAll(async () => {
  icons = (await import(ICONS_MODULE)) as IconsModule;
  const react = (await import(REACT)) as { createElement: (type: unknown, props: object) => unknown };
  const server = (await import(REACT_SERVER)) as { renderToStaticMarkup: (el: unknown) => string };
  render = (icon) => server.renderToStaticMarkup(react.createElement(icons.Icon, { icon }));
});

/** The SVG markup of a record's entry; fails when the entry is missing or not a component. */
function svgOf(record: IconRecord, key: string): string {
  expect(Object.hasOwn(record, key), `an icon for ${key}`).toBe(true);
  const svg = render(record[key]);
  expect(svg, `the icon for ${key} renders an SVG`).toMatch(/^<svg /);
  return svg;
}

function expectAllDistinct(record: IconRecord, keys: readonly string[]): void {
  const markups = keys.map((k) => svgOf(record, k));
  expect(new Set(markups).size, `distinct icons for ${keys.join(', ')}`).toBe(keys.length);
}

describe('icons', () => {
  it('has an icon for every capability of the catalog, each a different one', () => {
    expectAllDistinct(icons.CAPABILITY_ICON, CAPABILITIES);
  });

  it('has an icon for every job state and for held', () => {
    expectAllDistinct(icons.JOB_STATE_ICON, [...JOB_STATES, 'held']);
  });

  it('has an icon for every batch status and for scheduled', () => {
    expectAllDistinct(icons.BATCH_STATUS_ICON, [...DisplayBatchStatus.options, 'scheduled']);
  });

  it('has an icon for each navigation entry', () => {
    expectAllDistinct(icons.NAV_ICON, ['batches', 'new', 'watch', 'costs', 'keys']);
  });

  it('renders an SVG hidden from assistive technology and not focusable', () => {
    const svg = svgOf(icons.CAPABILITY_ICON, 'image');
    expect(svg).toContain('aria-hidden="true"');
    expect(svg).toContain('focusable="false"');
    expect(svg).toMatch(/class="[^"]*\bicon\b/);
  });
});
