// A long list that keeps only the lines in view in the DOM (@tanstack/react-virtual): 10,000
// refused rows scroll as lightly as ten. Lines have one fixed height and are cut with an ellipsis;
// the whole text is in each line's title.
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import './VirtualList.css';

const LINE_H = 28;

export function VirtualList({ lines, label, maxLines = 10 }: { lines: readonly string[]; label: string; maxLines?: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: lines.length, getScrollElement: () => scroller.current, estimateSize: () => LINE_H, overscan: 8 });
  return (
    <div
      ref={scroller}
      className="virtual-list"
      style={{ maxHeight: `${Math.min(lines.length, maxLines) * LINE_H + 2}px` }}
      tabIndex={0}
      role="group"
      aria-label={label}
    >
      <ul style={{ height: `${v.getTotalSize()}px` }} aria-label={label}>
        {v.getVirtualItems().map((item) => {
          const text = lines[item.index] ?? '';
          return (
            <li key={item.key} title={text} style={{ height: `${LINE_H}px`, transform: `translateY(${item.start}px)` }}>
              {text}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
