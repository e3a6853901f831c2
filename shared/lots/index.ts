// The LOTS math (paper §3, Appendix B.3, E.1): aggregation, ranking, selection, budget, surrogate,
// running scores, bootstrap uncertainty and space edits. Pure functions over score rows.
export * from './aggregate';
export * from './bootstrap';
export * from './budget';
export * from './edits';
export * from './fit';
export * from './fsum';
export * from './prng';
export * from './rank';
export * from './running';
export * from './select';
export * from './surrogate';
export * from './score-file';
export * from './faithfulness';
