// A batch's status as a pill: its icon and its word (the word carries it; the colour and icon help).
import type { DisplayBatchStatus } from '../../../shared/domain';
import { STATUS_LABEL } from '../format/labels';
import { BATCH_STATUS_ICON, Icon } from './icons';

export function StatusPill({ status, scheduled = false }: { status: DisplayBatchStatus; scheduled?: boolean }) {
  return (
    <span className={`status-pill status-pill--${status}`}>
      <Icon icon={BATCH_STATUS_ICON[status === 'pending' && scheduled ? 'scheduled' : status]} size={14} />
      {STATUS_LABEL[status]}
    </span>
  );
}
