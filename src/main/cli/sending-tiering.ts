// V8's tiering for the commands that send (their spec says `sends`: run, with --watch and --store
// too, demo, compare, index), set by main.ts before the command runs. A command lives for
// seconds, and V8's default tiering is tuned for pages and servers that live for minutes: `run`
// spent its first second mostly in unoptimized code (5,000 sends: the rate rose from ~1,500/s to
// ~4,500/s over 1.5 s). With an eighth of the default interrupt budget (67,584) hot functions are
// optimized about eight times sooner: 5,000 sends 1.90 s -> 1.62 s at c=16, 2.38 s -> 2.00 s at
// c=4. Set once the modules are loaded, so start-up code is not optimized for nothing (set on the
// command line instead, start-up took ~40 ms longer). Not for the other commands: an import
// optimized more functions sooner for nothing it needs (100,000 CSV rows: its compiling threads'
// CPU 174-224 -> 111-128 ms, the whole command 2-3% faster with V8's default;
// docs/performance.md, sixteenth round).
import { setFlagsFromString } from 'node:v8';

// V8 12 and later (Node 22, Node 24, Electron) count invocations instead of an interrupt budget
// (--interrupt-budget is gone: setting it printed "unrecognized flag" on every run). An eighth of
// each default invocation count (Maglev 400, TurboFan 3,000) is the same eightfold-sooner rule.
export const V8_TIERING = '--invocation-count-for-maglev=50 --invocation-count-for-turbofan=375';
let set = false;

export function tierForSending(): void {
  if (set) return;
  setFlagsFromString(V8_TIERING);
  set = true;
}
