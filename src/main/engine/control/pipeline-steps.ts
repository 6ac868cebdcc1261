// pause, resume, start and schedule act on a batch with every step of its pipeline.
import type { ControlPlane } from './plane';

/** The batches and every other visible step of their pipelines, each once (an id with no batch is kept as it is). */
export async function withPipelines(plane: ControlPlane, ids: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const id of ids) {
    const b = await plane.store.batch(id);
    if (!b) {
      out.add(id);
      continue;
    }
    for (const m of await plane.store.members(b.pipeline_id)) if (m.ready === 1) out.add(m.id);
  }
  return [...out];
}
