/** The most requests in flight per endpoint: a server's slots (or --concurrency) beyond this are refused. */
export const MAX_SLOTS = 256;
