// A job's item path (shared/item-path.ts) from its stored input: a file's from its path and its
// folder under the dropped one; a follow-up's from the item it takes (its first step's path,
// carried along); a CSV row or text line is its source as it is ("messages.csv row 3").
import { z } from 'zod';
import type { BatchCapability } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { pathUnderDrop } from '../../../shared/item-path';
import { storedJson } from '../stored-json';

const FileInput = z.object({ path: z.string(), folder: z.string().optional() });
const FollowUpInput = z.object({ from: z.object({ source: z.string(), path: z.string().optional() }) });

export function itemPathOf(capability: BatchCapability, payloadJson: string, source: string): string {
  const stored = storedJson(payloadJson);
  if (describe(capability).input.kind === 'files') {
    const f = FileInput.safeParse(stored);
    return f.success ? pathUnderDrop(f.data.path, f.data.folder) : source;
  }
  const follow = FollowUpInput.safeParse(stored);
  if (!follow.success) return source;
  // Made before follow-ups carried the path: the name of the file (or the row) it came from.
  return follow.data.from.path ?? pathUnderDrop(follow.data.from.source, null);
}
