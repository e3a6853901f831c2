// Expected errors of the service, with the codes the renderer explains (CONVENTIONS §8).
import { ApiError } from '../../../shared/api/errors';

export function notFound(message: string): ApiError {
  return new ApiError('NOT_FOUND', message, 'NotFound');
}

export function noProject(): ApiError {
  return new ApiError('NO_PROJECT', 'no project is open: open a project folder, create one, or build the demo first', 'NoProject');
}

export function invalid(message: string): ApiError {
  return new ApiError('INVALID_INPUT', message, 'InvalidInput');
}

export function unavailable(message: string): ApiError {
  return new ApiError('UNAVAILABLE', message, 'Unavailable');
}
