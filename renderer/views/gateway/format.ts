// The Gateway view's small formatters: a gateway's kind as a label, a time as a clock and as an age.
import type { GatewayInfo } from '../../../shared/api';
import { fmtTime } from '../../format';

export function kindLabel(g: GatewayInfo): string {
  return g.kind === 'openai' ? 'OpenAI gateway' : `MCP gateway · task ${g.task ?? '?'}`;
}

/** The time of day when it is the same day as `now`, else the date too. */
export function clock(iso: string, now: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toDateString() === new Date(now).toDateString() ? d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }) : fmtTime(iso);
}

/** "3 min ago", from the time the records were read. */
export function ago(iso: string, now: string): string {
  const s = Math.max(0, Math.round((Date.parse(now) - Date.parse(iso)) / 1000));
  if (!Number.isFinite(s)) return 'a while ago';
  if (s < 90) return `${s} s ago`;
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}
