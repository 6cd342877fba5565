"""Cost of the HTML report at scale: generation time and page weight.

    python examples/benchmark_report.py [--episodes 1000] [--workers 2]

Runs the random baseline on all ten puzzles (``episodes`` per puzzle, 10,000 by default),
times that rollout as the reference, then builds the report twice: once into an empty
folder (every image drawn) and once more into the same folder (images already there), and
prints seconds, the ratio to the rollout, and the weight of what a browser loads.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from comma_env.run.rollout import run
from comma_env.web.report import write_report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=1000, help="episodes per puzzle")
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="comma_report_bench_"))
    started = time.perf_counter()
    run({"model": {"kind": "random", "name": "random"}, "episodes": args.episodes, "out_dir": str(work / "random"),
         "progress_bar": False}, quiet=True)
    rollout = time.perf_counter() - started
    cold = write_report([work / "random"], work / "report", workers=args.workers, quiet=True)
    warm = write_report([work / "random"], work / "report", workers=args.workers, quiet=True)
    pages = sorted((work / "report" / "episodes" / "random").glob("*.html"))
    sizes = [p.stat().st_size for p in pages]
    images_per_page = []
    image_bytes_per_page = []
    for page in pages[:: max(1, len(pages) // 500)]:
        names = set(__import__("re").findall(r'src="\.\./\.\./images/([^"]+)"', page.read_text()))
        images_per_page.append(len(names))
        image_bytes_per_page.append(sum((work / "report" / "images" / n).stat().st_size for n in names))
    kb = 1024
    print(f"episodes: {cold.episodes}, rollout (reference) {rollout:.1f} s")
    print(f"report, images drawn: {cold.seconds:.1f} s ({cold.seconds / rollout:.1f}x the rollout), "
          f"{cold.seconds / cold.episodes * 1000:.1f} ms per episode")
    print(f"report, images present: {warm.seconds:.1f} s ({warm.seconds / rollout:.1f}x the rollout)")
    print(f"report.html: {cold.index_bytes / kb:.0f} KB (+ plots {sum(p.stat().st_size for p in (work / 'report' / 'plots').glob('*.png')) / kb:.0f} KB)")
    print(f"episode page: median {statistics.median(sizes) / kb:.1f} KB HTML + {statistics.median(image_bytes_per_page) / kb:.0f} KB "
          f"in {statistics.median(images_per_page):.0f} images (lazy); all pages {sum(sizes) / kb / kb:.0f} MB")
    print(f"images: {cold.images} files, {cold.image_bytes / kb / kb:.0f} MB (one per distinct state); "
          f"replay mismatches: {cold.mismatches}")
    print(f"folder: {work}")


if __name__ == "__main__":
    main()
