"""`python -m comma_env.openenv puzzle=wire role=solver partner=oracle`: see `server.py`."""

import sys

from comma_env.openenv.server import main

sys.exit(main())
