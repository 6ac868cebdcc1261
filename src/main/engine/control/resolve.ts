// A batch id from its full id or a unique prefix, as git accepts one.
import { NotFoundError } from '../failures';
import { inStore, storeFlag, type ControlPlane } from './plane';
import { PREFIX_SHOWN } from '../queue/batch-store';

export async function resolveBatchId(plane: ControlPlane, idOrPrefix: string): Promise<string> {
  const ids = await plane.store.matchingIds(idOrPrefix);
  if (ids.includes(idOrPrefix)) return idOrPrefix;
  const [only] = ids;
  if (only !== undefined && ids.length === 1) return only;
  if (ids.length > 1) {
    const named = ids.slice(0, PREFIX_SHOWN).join(', ');
    throw new NotFoundError(
      `"${idOrPrefix}" is the start of several batches' ids${inStore(plane)} (${named}${ids.length > PREFIX_SHOWN ? ', and more' : ''}): type more of the id.`,
      { code: 'batch_ambiguous', prefix: idOrPrefix },
    );
  }
  throw new NotFoundError(`No batch "${idOrPrefix}"${inStore(plane)}. \`batchdesk status${storeFlag(plane)}\` lists the batches.`, {
    code: 'no_batch',
    batch: idOrPrefix,
  });
}
