"""Write the HTML report of rollout folders, or serve it (``--serve``); needs the ``web`` extra.

Exit codes: 0 done, 2 bad arguments or folders (nothing written), 1 the report failed while being written."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from comma_env.run.exits import EXIT_CONFIG_ERROR, EXIT_OK, EXIT_RUN_ERROR


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m comma_env.report", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dirs", nargs="+", help="rollout output folder(s); several give a model comparison")
    parser.add_argument("--out", default=None,
                        help="report folder (default: OUT_DIR/report, or report/ beside the first of several)")
    parser.add_argument("--pages", choices=("auto", "all", "none"), default="auto",
                        help="write episode pages and images: all, none (index only), or auto: all up to "
                             "300 episodes, none above (then open them with --serve)")
    parser.add_argument("--serve", action="store_true",
                        help="serve the report on 127.0.0.1, drawing each episode page and image when opened")
    parser.add_argument("--port", type=int, default=8765, help="port of --serve (0: any free port)")
    parser.add_argument("--padufes-root", default=None,
                        help="PAD-UFES-20 folder for Telehealth episodes recorded with real photos "
                             "(a record's own path is never read)")
    parser.add_argument("--workers", type=int, default=None, help="processes that redraw images (default: CPU count)")
    args = parser.parse_args(argv)
    roots = {"padufes_root": args.padufes_root} if args.padufes_root else None
    try:
        if args.serve:
            from comma_env.web.report_server import serve

            serve(args.out_dirs, args.out, port=args.port, data_roots=roots)
        else:
            from comma_env.web.report import write_report

            write_report(args.out_dirs, args.out, workers=args.workers, pages=args.pages, data_roots=roots)
    except ImportError as error:
        from comma_env.protocol.resources import install_hint

        print(f"comma_env.report: {error}; install the web extra: {install_hint('web')}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    except (FileNotFoundError, ValueError) as error:  # no such folder, no episodes, unsafe report folder
        print(f"comma_env.report: {error}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    except OSError as error:
        print(f"comma_env.report: cannot write the report: {error}", file=sys.stderr)
        return EXIT_RUN_ERROR
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
