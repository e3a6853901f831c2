// The built-in benchmark (paper B.1 TGB, our own deterministic version): scenes, families, tools,
// registry, executor, traces, grading, BM25, baselines, budget sweep and continual updates.
export { Rng, rngFor, hashString } from './rng';
export { FAMILY_NAMES, isFamilyName } from './family';
export type { Family, FamilyName, ChainStep } from './family';
export { FAMILIES } from './families/index';
export { AUTHORED_TOOLS, CHAIN_TOOLS, DISTRACTOR_TOOLS, AUTHORED_TOOL_DEFS, isAuthoredTool } from './tools';
export { REGISTRY_SIZES, registryNames, registryDefs, benchToolDef, isBenchTool, canonicalOrder } from './registry';
export { instantiate, benchTraceId } from './instance';
export type { BenchInstance } from './instance';
export { executeMenu, renderToolLines } from './executor';
export type { ToolLine } from './executor';
export { BENCH_SYSTEM, BenchMetaSchema, buildBenchTrace, isBenchTrace, readBenchMeta, instanceOfTrace, reexecuteWithout, reexecuteWithoutTools, benchExecutor } from './trace';
export type { BenchMeta, BenchTraceOptions } from './trace';
export { generateBenchmark, planBenchmark, DEFAULT_FIT, DEFAULT_EVAL, DEFAULT_REGISTRY, DEFAULT_SEED } from './generate';
export type { BenchOptions, BenchPlan } from './generate';
export { gradeAnswer, firstNumber, ABSOLUTE_TOLERANCE, RELATIVE_TOLERANCE } from './grade';
export type { Grade } from './grade';
export { Bm25Index, bm25TaskRanking, bm25Tokens, toolDocument } from './bm25';
export { baselineSpaces, randomSpaces, bm25Space, meanStd, BASELINE_NAMES, DEFAULT_RANDOM_DRAWS } from './baselines';
export type { BaselineName, BaselineSpace } from './baselines';
export { runBudgetSweep, compareSpaces, defaultBudgetGrid, sameSet } from './sweep';
export type { MenuEvaluation, MenuEvaluator, SweepProgress, ComparedSpace, Split } from './sweep';
export { chooseServingMenu } from './exploration';
export { runContinualUpdates } from './continual';
export type { ContinualUpdate, ContinualOptions, ServeRequest } from './continual';
export { formatNumber, truncateOutput, LINE_LIMIT } from './format';
