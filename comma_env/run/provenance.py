"""Where results came from: package version, git commit (from a checkout), Python and key library
versions, written into ``config.yaml`` and ``results.json``."""

from __future__ import annotations

import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

KEY_LIBRARIES = ("numpy", "pillow", "gymnasium", "pettingzoo", "hydra-core", "omegaconf", "litellm", "httpx", "aiohttp")


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def git_commit(root: Path) -> dict[str, Any] | None:
    """``{"commit", "dirty"}`` of the checkout that holds `root`, or None outside one."""
    if not (root / ".git").exists():  # only our own checkout, never an enclosing repository
        return None
    commit = _git(root, "rev-parse", "HEAD")
    if not commit:
        return None
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(status)}


def provenance() -> dict[str, Any]:
    """The provenance block: versions, platform and, from a checkout, the git commit."""
    import comma_env

    root = Path(comma_env.__file__).resolve().parent.parent
    info: dict[str, Any] = {
        "comma_env": comma_env.__version__,  # the code that ran (an editable install's metadata can lag)
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "libraries": {name: v for name in KEY_LIBRARIES if (v := _version(name))},
    }
    git = git_commit(root)
    if git:
        info["git"] = git
    return info
