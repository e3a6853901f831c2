// The error vocabulary is part of the API contract; it lives on the base floor (shared/base/errors.ts) so the
// lower floors of shared/ use it without reaching up to api/.
export * from '../base/errors';
