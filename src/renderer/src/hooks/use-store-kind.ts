// Whose batches the window shows (app.info's `store`): the data folder's or a team's store. Asked
// once per window: the host's desk does not change while the window is open.
import { useEffect, useState } from 'react';
import type { ResultOf } from '../../../shared/contract';
import { client } from '../client';

type StoreKind = ResultOf<'app.info'>['store'];

let asked: Promise<StoreKind> | null = null;

/** The store kind; null until the engine has said (a control a team's store refuses waits for it). */
export function useStoreKind(): StoreKind | null {
  const [kind, setKind] = useState<StoreKind | null>(null);
  useEffect(() => {
    let live = true;
    asked ??= client()
      .call('app.info', {})
      .then((i) => i.store);
    asked.then(
      (k) => live && setKind(k),
      () => {
        // Asked again next time: a failed call (the host restarting) says nothing about the store.
        asked = null;
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return kind;
}
