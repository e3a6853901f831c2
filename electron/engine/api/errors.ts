// Expected errors of the service, with the codes the renderer explains (CONVENTIONS §8).
import { ExpectedError } from '../../../shared/api/errors';

export function notFound(message: string): ExpectedError<'NOT_FOUND'> {
  return new ExpectedError('NOT_FOUND', message);
}

export function noProject(): ExpectedError<'NO_PROJECT'> {
  return new ExpectedError('NO_PROJECT', 'no project is open: open a project folder, create one, or build the demo first');
}

export function invalid(message: string): ExpectedError<'INVALID_INPUT'> {
  return new ExpectedError('INVALID_INPUT', message);
}

export function unavailable(message: string): ExpectedError<'UNAVAILABLE'> {
  return new ExpectedError('UNAVAILABLE', message);
}
