// What `cancel` says when nothing is left to cancel. A finished batch stays as it is: cancelling
// it used to make it `cancelled`, which hid that it had finished (README: done stays done) and
// refused a later `retry` of its failed items. On one computer and for a team alike.
import { assertNever, type BatchSummary } from '../../../shared/domain';

export function nothingToCancel(b: Pick<BatchSummary, 'id' | 'status'>, shared: boolean): string {
  const store = shared ? ' --store URL' : '';
  switch (b.status) {
    case 'cancelled':
      return `${b.id} was cancelled already: nothing was changed.`;
    case 'done':
      return `${b.id} is done: nothing is left to send, so nothing was cancelled (it stays done).`;
    case 'done_with_failures':
      return `${b.id} is done: nothing is left to send, so nothing was cancelled (it stays done; \`batchdesk retry ${b.id}${store}\` queues its failed items again).`;
    case 'pending':
    case 'running':
    case 'paused':
      // Not reached when nothing in its pipeline is open (it shows as done or cancelled); said plainly all the same.
      return `${b.id} has nothing left to send, nor any step of its pipeline: nothing was cancelled.`;
    default:
      return assertNever(b.status, 'batch status');
  }
}
