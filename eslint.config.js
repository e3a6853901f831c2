// Layering rules (see CONVENTIONS.md): shared/ is pure, the engine never imports electron,
// the renderer only imports shared/. A violation fails `npm test`.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'stream', 'stream/*', 'url', 'util', 'worker_threads', 'zlib', 'events', 'readline', 'process', 'buffer'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist-electron/**', 'release/**', 'artifacts/**', 'tests/.fixtures/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {},
  },
  {
    files: ['shared/**/*.ts', 'shared/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: nodeBuiltins, message: 'shared/ is pure: no Node built-ins (move this to electron/engine/).' },
          { group: ['electron', 'electron/*'], message: 'shared/ is pure: no electron.' },
          { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'shared/ is pure: no DOM or React.' },
          { group: ['../electron/*', '../../electron/*', '../../../electron/*', '../renderer/*', '../../renderer/*', '../../../renderer/*', '../tests/*', '../../tests/*'], message: 'shared/ imports only from shared/.' },
          { group: ['node-llama-cpp', 'ws', 'better-sqlite3'], message: 'shared/ is pure: no runtime-specific packages.' },
        ],
      }],
      'no-restricted-globals': ['error',
        { name: 'window', message: 'shared/ is pure: no DOM.' },
        { name: 'document', message: 'shared/ is pure: no DOM.' },
        { name: 'process', message: 'shared/ is pure: no Node globals.' },
        { name: 'require', message: 'shared/ is pure.' },
      ],
    },
  },
  {
    files: ['electron/engine/**/*.ts', 'electron/cli/**/*.ts', 'electron/host/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['electron', 'electron/*'], message: 'The engine runs in plain Node: never import electron here.' },
          { group: ['../../renderer/*', '../../../renderer/*', '../renderer/*'], message: 'The engine does not import the renderer.' },
        ],
      }],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: nodeBuiltins, message: 'The renderer runs in a browser: no Node built-ins.' },
          { group: ['electron', 'electron/*', 'node-llama-cpp', 'ws'], message: 'The renderer talks to the engine only through the API contract in shared/api.' },
          { group: ['../electron/*', '../../electron/*', '../../../electron/*'], message: 'The renderer imports only shared/.' },
        ],
      }],
    },
  },
);
