"""Write the static HTML report of rollout folders.

    python -m comma_env.report OUT_DIR [OUT_DIR ...] [--out REPORT_DIR] [--workers N]

See `comma_env.web.report`. Needs the ``web`` extra (``pip install -e ".[web]"`` in a checkout; the message names
the command for this installation).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m comma_env.report", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dirs", nargs="+", help="rollout output folder(s); several give a model comparison")
    parser.add_argument("--out", default=None,
                        help="report folder (default: OUT_DIR/report, or report/ beside the first of several)")
    parser.add_argument("--workers", type=int, default=None, help="processes that redraw images (default: CPU count)")
    args = parser.parse_args(argv)
    try:
        from comma_env.web.report import write_report

        write_report(args.out_dirs, args.out, workers=args.workers)
    except ImportError as error:
        from comma_env.protocol.resources import install_hint

        print(f"comma_env.report: {error}; install the web extra: {install_hint('web')}", file=sys.stderr)
        return 2
    except (FileNotFoundError, ValueError) as error:
        print(f"comma_env.report: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
