// Chart colours follow the theme (recharts takes colours as props, not CSS variables).
import { useStudio } from '../store/react';

const DARK = {
  pos: '#5b9bd8',
  neg: '#ec8a4c',
  muted: '#4a4f59',
  grid: '#2c3038',
  axis: '#5b616d',
  text: '#b7bac0',
  accent: '#79b0e4',
  good: '#4caf7d',
  warn: '#e2b340',
  series3: '#c39bd3',
  tooltip: { background: '#1d2026', border: '1px solid #464b55', color: '#e6e6e3', fontSize: 12 },
};
const LIGHT = {
  pos: '#2166ac',
  neg: '#d66018',
  muted: '#c9ccd1',
  grid: '#ececec',
  axis: '#9aa0a8',
  text: '#50545c',
  accent: '#2166ac',
  good: '#2e8b57',
  warn: '#9a6a00',
  series3: '#7b4fa0',
  tooltip: { background: '#ffffff', border: '1px solid #c4c4bc', color: '#1d1f23', fontSize: 12 },
};

/** The same object for a theme, so memoised charts do not re-render on unrelated changes. */
export function useChartColors() {
  const dark = useStudio((s) => s.theme === 'dark');
  return dark ? DARK : LIGHT;
}
