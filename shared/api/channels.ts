// Channel names of the contract, without zod, so the preload bundle stays tiny. Kept in sync with
// apiInputSchemas by a test (tests/electron/security.test.ts).

export const API_METHOD_NAMES = [
  'getAppInfo',
  'listRecentProjects',
  'getProject',
  'openProject',
  'createProject',
  'closeProject',
  'pickPath',
  'importTraces',
  'routeTraces',
  'getHeatmap',
  'getTrace',
  'getRanking',
  'getBudget',
  'getSpaces',
  'acceptSpace',
  'getHistory',
  'updateSpace',
  'getGateways',
  'compareRuns',
  'renderExport',
  'saveExport',
  'exportAllSpaces',
  'renderReport',
  'saveReport',
  'listJobs',
  'startScoring',
  'startSweep',
  'startFaithfulness',
  'pauseJob',
  'resumeJob',
  'cancelJob',
  'getModels',
  'inspectModel',
  'getGpuInfo',
  'downloadModel',
  'prepareReferenceModel',
  'getScoringServer',
  'saveScoringServer',
  'checkScoringServer',
  'forgetScoringServer',
  'buildDemo',
  'getDemoSetup',
  'startDemo',
  'getDemo',
  'renderDemoReport',
  'openSampleProject',
] as const;

export const API_EVENT_NAMES = ['jobUpdate', 'projectChanged', 'menuCommand'] as const;

/** IPC channel of a method: namespaced so nothing else in the app can collide with it. */
export function methodChannel(method: string): string {
  return `lots:call:${method}`;
}

export function eventChannel(event: string): string {
  return `lots:event:${event}`;
}

/** HTTP path of a method on the web host. */
export function methodPath(method: string): string {
  return `/api/call/${method}`;
}

export const EVENTS_PATH = '/api/events';
