// The runtime `auto` picks: a GPU backend only where it has a device. A machine with the Vulkan loader
// and Mesa's drivers but no GPU (this CI machine: libvulkan1 + mesa-vulkan-drivers, no device) loaded
// node-llama-cpp's prebuilt Vulkan binary, which ran every layer on the CPU without the patched build's
// fast read (issue 43).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { getRuntime, gpuInfo, gpuUsable, runtimeReadPath } from '../../../electron/engine/llama/runtime';

describe('the runtime auto picks', () => {
  it('takes a GPU backend only with a device and memory on it', () => {
    expect(gpuUsable({ gpu: 'vulkan', devices: [], vramTotal: 0 })).toBe(false);
    expect(gpuUsable({ gpu: 'vulkan', devices: ['llvmpipe'], vramTotal: 0 })).toBe(false);
    expect(gpuUsable({ gpu: 'cuda', devices: ['NVIDIA H200'], vramTotal: 150e9 })).toBe(true);
    expect(gpuUsable({ gpu: false, devices: [], vramTotal: 0 })).toBe(true);
  });

  it('on this machine: a GPU backend it reports has a device', async () => {
    const info = await gpuInfo('auto');
    if (info.type !== false) expect(info.devices.length).toBeGreaterThan(0);
    const llama = await getRuntime('auto');
    expect(llama.gpu).toBe(info.type);
  });

  it("names the read path the binding in use has, as build/fast-scorer.mjs --check finds it (the Models view's line)", async () => {
    const built = spawnSync(process.execPath, ['build/fast-scorer.mjs', '--check']).status === 0;
    const cpu = runtimeReadPath(await getRuntime('cpu'));
    expect(cpu.path).toBe(built ? 'fast read' : 'confidence');
    expect(cpu.why).toContain("node-llama-cpp's CPU binding");
    const info = await gpuInfo('auto');
    if (info.type === false) expect(info.scoringRead).toEqual(cpu);
  });
});
