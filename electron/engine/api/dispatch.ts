// The one entry every transport uses: validate the input against the contract's schema, confine its
// file paths to the service's root (`lots ui --root`: every path field of the schemas, path-policy.ts),
// call the service, and return an envelope so expected errors keep their code across IPC/HTTP.
import { apiInputSchemas, type ApiMethodName } from '../../../shared/api/schemas';
import { serializeError, TRANSPORT_ERRORS, type Envelope } from '../../../shared/api/errors';
import { describeZodError } from '../../../shared/trace/validate';
import type { ApiMethods } from '../../../shared/api/contract';
import type { PathPolicy } from './path-policy';

/** A service, and the paths it may use (none given: unconfined). */
export type DispatchTarget = ApiMethods & { readonly paths?: PathPolicy };

export function isApiMethod(name: string): name is ApiMethodName {
  return Object.hasOwn(apiInputSchemas, name);
}

export async function dispatch(service: DispatchTarget, method: string, input: unknown): Promise<Envelope<unknown>> {
  if (!isApiMethod(method)) {
    return { ok: false, error: { name: 'Error', code: TRANSPORT_ERRORS.UNKNOWN_METHOD, message: `unknown API method "${method}"` } };
  }
  const parsed = apiInputSchemas[method].safeParse(input ?? undefined);
  if (!parsed.success) {
    return { ok: false, error: { name: 'InvalidInput', code: TRANSPORT_ERRORS.INVALID_INPUT, message: `${method}: ${describeZodError(parsed.error)}` } };
  }
  try {
    const confined = service.paths ? service.paths.confineInput(method, parsed.data) : parsed.data;
    const fn = service[method] as (arg: unknown) => Promise<unknown>;
    const value = await fn.call(service, confined);
    return { ok: true, value: value ?? null };
  } catch (e) {
    const error = serializeError(e);
    // Bugs are logged with their stack where the engine runs; the renderer gets the message.
    if (error.code === TRANSPORT_ERRORS.INTERNAL) console.error(`lots: ${method} failed:`, e);
    return { ok: false, error };
  }
}
