// The typed API contract shared by the engine, the transports and the renderer.
export type { StudioApi, ApiMethods, ApiEvents, ApiEventName, Unsubscribe } from './contract';
export { apiInputSchemas } from './schemas';
export type { ApiInput, ApiMethodName, ApiParsedInput } from './schemas';
export { API_METHOD_NAMES, API_EVENT_NAMES, methodChannel, eventChannel, methodPath, EVENTS_PATH } from './channels';
export { ApiError, ERROR_HINTS, serializeError, rebuildError, isSerializedError, TRANSPORT_ERRORS } from './errors';
export type { SerializedError, Envelope } from './errors';
export * from './types';
export * from './model-types';
export type { HistoryData, UpdateResult, RunComparison } from './history';
export type {
  GatewayBatch,
  GatewayBatchState,
  GatewayDeferredCall,
  GatewayFoldTask,
  GatewayInfo,
  GatewaySpaceStates,
  GatewayTaskRow,
  GatewayTotals,
  GatewayViewData,
} from './gateways';
export { encodeFloat32, decodeFloat32, encodeUint8, decodeUint8 } from './matrix';
export { createApiClient } from './client';
export type { Transport as ApiTransport } from './client';
export { BRIDGE_GLOBAL } from './bridge';
export type { LotsBridge } from './bridge';
export { contentSecurityPolicy } from './csp';
