// The rate gates of one run, one per key: how many requests a key has in flight here and how fast
// they start. The local runner's gates keep the key's whole limits; a team worker's keep only its
// concurrency (the request limit is the team's bucket in the shared store).
import type { Credential } from '../api/request';
import type { ResolvedKey } from '../secrets/key-manager';
import { RateGate, type GateLimits } from './rate-gate';

export class KeyGates {
  private readonly gates = new Map<string, { gate: RateGate; key: ResolvedKey }>();

  constructor(
    /** The key's limits under the settings now (read again by `refresh`). */
    private readonly limits: (key: ResolvedKey) => GateLimits,
    private readonly now: () => number,
  ) {}

  /** The key's gate, made at its first use in this run. */
  of(kind: Credential, key: ResolvedKey): RateGate {
    const id = key.id ?? `${kind}:${key.label}`;
    let g = this.gates.get(id);
    if (!g) {
      g = { gate: new RateGate(this.limits(key), this.now), key };
      this.gates.set(id, g);
    }
    return g.gate;
  }

  /** The settings may have changed: every gate takes its key's limits again. */
  refresh(): void {
    for (const g of this.gates.values()) g.gate.update(this.limits(g.key));
  }

  /** The run is over: the gates' timers stop. */
  dispose(): void {
    for (const g of this.gates.values()) g.gate.dispose();
    this.gates.clear();
  }
}
