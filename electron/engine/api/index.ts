// The engine-side implementation of the API contract and the dispatcher every transport uses.
export { StudioService } from './service';
export type { NativeDialogs, StudioServiceOptions } from './service';
export { dispatch, isApiMethod } from './dispatch';
export { ServiceEvents } from './events';
export { defaultConfigDir } from '../user-data/config-dir';
