"""COMMA for verifiers: `load_environment` returns a ``verifiers.MultiTurnEnv`` (docs/training.md).

    vf-eval comma_env.vf -a '{"puzzle": "wire", "role": "solver", "partner": "oracle_nl"}' \\
        -m MODEL -b http://127.0.0.1:8000/v1 -k OPENAI_API_KEY -n 10 -r 4

Named ``vf`` so it never shadows the library; verifiers is imported when an environment is built."""

from __future__ import annotations

from typing import Any

ENV_OPTIONS = ("solver_view", "max_turns", "max_mistakes", "memory", "action_matching", "puzzle_options",
               "success_bonus", "mistake_penalty", "leak_penalty", "leak_unsure_penalty", "token_cost")


def load_environment(puzzle: str = "wire", role: str = "solver", partner: Any = "oracle_nl", **options: Any) -> Any:
    """A verifiers `MultiTurnEnv` in which the model plays `role` of `puzzle` against `partner`.

    Args:
        puzzle: a COMMA puzzle (``wire``, ``who``, ... ``telehealth``, v1's ``button``, ``dog``, ``sound``).
        role: the model's role, ``solver`` or ``expert``.
        partner: the other role: a ``conf/model`` name (``oracle``, ``oracle_nl``, ``random``,
            ``openai_compat``...) or a `Policy`.
        **options: environment options (``solver_view``, ``max_turns``, ``max_mistakes``,
            ``memory``, ``action_matching``, ``puzzle_options``, reward options
            ``success_bonus``, ``mistake_penalty``, ``leak_penalty``, ``leak_unsure_penalty``, ``token_cost``);
            ``seeds`` (training rows, default 100..1099) and ``eval_seeds`` (default the
            paper's 0..99); ``partner_overrides``, ``partner_seed``, ``privacy_reminder``;
            anything else goes to ``verifiers.MultiTurnEnv``.
    """
    try:
        from comma_env.vf.environment import CommaMultiTurnEnv
    except ImportError as error:  # verifiers or one of its modules is missing
        raise ImportError("comma_env.vf needs verifiers 0.3.1: pip install -e '.[verifiers]' && "
                          f"pip install --no-deps verifiers==0.3.1 ({error})") from error

    env_options = {key: options.pop(key) for key in list(options) if key in ENV_OPTIONS}
    return CommaMultiTurnEnv(puzzle, role=role, partner=partner, env_options=env_options, **options)


__all__ = ["load_environment"]
