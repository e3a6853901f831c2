import type { SpaceStatus } from '../../shared/api';

const LABELS: Record<SpaceStatus, [string, string]> = {
  none: ['not scored', ''],
  proposed: ['proposed', 'accent'],
  approved: ['approved', 'good'],
  changed: ['changed since approval', 'warn'],
};

export function SpacePill({ status, version }: { status: SpaceStatus; version?: number }) {
  const [label, tone] = LABELS[status];
  return (
    <span className={`pill ${tone}`}>
      {label}
      {version !== undefined && status !== 'none' && status !== 'proposed' ? ` · v${version}` : ''}
    </span>
  );
}
