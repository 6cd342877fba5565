"""The server app as OpenEnv's tooling runs it (``uvicorn server.app:app``, the ``server`` script,
``python -m server.app``). Settings are `comma_env.openenv.server.ServerSettings` overrides,
``key=value`` words in the COMMA_OPENENV environment variable (the script also takes them as arguments)."""

import os
import shlex
import sys

from comma_env.openenv.server import main as serve
from comma_env.openenv.server import make_app, parse_settings

app = make_app(parse_settings(shlex.split(os.environ.get("COMMA_OPENENV", ""))))


def main() -> int:
    """Serve with the settings of COMMA_OPENENV, then those on the command line."""
    return serve([*shlex.split(os.environ.get("COMMA_OPENENV", "")), *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
