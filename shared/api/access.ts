// What each API method does to the engine's machine, for the web host's view-only token (`lots ui` prints
// a second link for an audience): a "read" method only reads the open project (its views, its Demo view,
// its exports rendered as text); every other method writes (files, settings, approvals), starts or steers
// a job, opens or creates a project, lists or reads what lies outside the open project (recent projects,
// model files, GPU, scoring-server settings), or contacts another machine — and is refused with 403 to a
// view-only token. The type makes every method of the contract be classified here.
import type { ApiMethodName } from './schemas';

export type ApiAccess = 'read' | 'write';

export const API_METHOD_ACCESS: Record<ApiMethodName, ApiAccess> = {
  getAppInfo: 'read',
  listRecentProjects: 'write', // other projects than the open one
  getProject: 'read',
  openProject: 'write',
  createProject: 'write',
  closeProject: 'write',
  pickPath: 'write',
  importTraces: 'write',
  routeTraces: 'write', // stores the routing with the project
  getHeatmap: 'read',
  getTrace: 'read',
  getRanking: 'read',
  getBudget: 'read',
  getSpaces: 'read',
  acceptSpace: 'write',
  getHistory: 'read',
  updateSpace: 'write', // folds batches and writes the running scores
  compareRuns: 'read',
  getGateways: 'read',
  renderExport: 'read',
  saveExport: 'write',
  // Writes one file per approved space into a folder (or returns every approved space at once).
  exportAllSpaces: 'write',
  renderReport: 'read',
  saveReport: 'write',
  listJobs: 'read',
  startScoring: 'write',
  startSweep: 'write',
  startFaithfulness: 'write',
  pauseJob: 'write',
  resumeJob: 'write',
  cancelJob: 'write',
  getModels: 'write', // model files on the machine
  inspectModel: 'write',
  getGpuInfo: 'write',
  downloadModel: 'write',
  prepareReferenceModel: 'write',
  getScoringServer: 'write', // the user's settings
  saveScoringServer: 'write',
  checkScoringServer: 'write', // contacts other machines
  forgetScoringServer: 'write',
  buildDemo: 'write',
  getDemoSetup: 'write',
  startDemo: 'write',
  getDemo: 'read',
  renderDemoReport: 'read',
  openSampleProject: 'write',
};

/** The methods a view-only token may call. */
export function isReadMethod(method: string): boolean {
  return Object.hasOwn(API_METHOD_ACCESS, method) && API_METHOD_ACCESS[method as ApiMethodName] === 'read';
}
