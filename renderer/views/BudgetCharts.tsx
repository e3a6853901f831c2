// The Budget view's two charts, memoised so a slider move re-renders only the K marker: fitting accuracy
// and the surrogate F̂ against K with the baselines' markers (FitChart), and tool-definition and prompt
// tokens against K (CostChart), with their legends and swatches.
export { CostChart } from './budget/CostChart';
export { FitChart } from './budget/FitChart';
export type { ChartPoint, Colors } from './budget/chart-parts';
export { fmtBaselineAccuracy } from './budget/fmt-baseline';
