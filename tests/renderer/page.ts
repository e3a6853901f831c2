// A happy-dom page for the view tests that run against the real engine service. Such a test file stays in
// vitest's node environment and imports this module first (before React and Testing Library, which look
// for a document when they load): vitest's happy-dom environment would transform every module for a
// browser, and that transform rewrites the engine's `new URL('…', import.meta.url)` (a path beside its
// source, electron/engine/usecases/demo.ts) into a dev-server address the engine cannot read. So the
// page's globals come from vitest's own happy-dom setup, and the modules stay transformed for Node.
// Each test file runs in its own worker, so the page lives as long as the file.
import { builtinEnvironments } from 'vitest/runtime';

// The engine runs in this same process and speaks HTTP with Node's fetch (a scoring server's check, a
// pull): happy-dom's would treat it as a page's request (CORS, a page origin). The page itself talks to the
// engine through the in-memory transport, never fetch, so Node's HTTP globals are put back.
const node = { fetch, Request, Response, Headers, AbortController, AbortSignal };
await builtinEnvironments['happy-dom'].setup(globalThis, {});
Object.assign(globalThis, node);
