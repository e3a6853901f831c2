// The version of LOTS Studio, from package.json: inlined by esbuild in the app bundle, read as a JSON
// module by tsx (the CLI) and vitest.
import pkg from '../../package.json';

export const STUDIO_VERSION: string = pkg.version;
