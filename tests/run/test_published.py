"""The paper's published rows: transcribed cells agree with the paper's text and with each other."""

from __future__ import annotations

import glob
from pathlib import Path

import pytest

from comma_env.run.fidelity import PAPER_RANDOM
from comma_env.run.published import (
    COLUMNS,
    TABLE_1_PSR,
    TABLE_2_LAST,
    TABLE_3_SR,
    published_rows,
    published_table,
)
from tests.support.script_files import load_script

PAPER = sorted(glob.glob("/work/shared/seeds/002_*.txt"))
PRINTED_SR_ABOVE_PSR = {("Random", "maze"), ("Human + GPT-4o", "maze")}
"""Cells where the paper's Table 3 prints a higher success rate than its Table 1's partial
success rate (kept as printed)."""


def row(table, model):
    return next(r for r in table if r.model == model)


def column_text(table, models, puzzle):
    """A column of a block of rows as the paper's text prints it: one ``v ± se`` a line."""
    return "\n".join(f"{row(table, m).cells[puzzle][0]:.0f} ± {row(table, m).cells[puzzle][1]:.1f}" for m in models)


@pytest.mark.skipif(not PAPER, reason="the paper's text is not on this machine")
@pytest.mark.parametrize("table, models, puzzles", [
    (TABLE_1_PSR, ["GPT-4o", "Gemini", "GPT-4V"], ["wire", "led", "maze", "atm"]),
    (TABLE_1_PSR, ["LLaMA 3.2", "QwenVL", "InternVL", "Random", "LLaVA 1.6"], ["telehealth", "keypad", "maze"]),
    (TABLE_1_PSR, ["o4-mini", "R1-OneVision", "LLaVA-CoT"], ["wire", "memory", "color"]),
    (TABLE_3_SR, ["GPT-4o", "Gemini", "GPT-4V"], ["telehealth", "led", "memory"]),
    (TABLE_3_SR, ["QwenVL", "LLaMA 3.2", "Random", "InternVL", "LLaVA 1.6"], ["telehealth", "who", "keypad"]),
])
def test_cells_appear_in_the_paper_text_column_by_column(table, models, puzzles):
    text = Path(PAPER[0]).read_text()
    for puzzle in puzzles:
        assert column_text(table, models, puzzle) in text, (models, puzzle)


@pytest.mark.skipif(not PAPER, reason="the paper's text is not on this machine")
def test_overall_cells_and_the_human_rows_appear_in_the_paper_text():
    text = Path(PAPER[0]).read_text()
    human = row(TABLE_1_PSR, "Human + GPT-4o")
    printed = " ".join(f"{human.cells[p][0]:.0f} ± {human.cells[p][1]:.1f}" for p in COLUMNS)
    assert f"Human + GPT-4o {printed} {human.overall[0]:.2f} ± {human.overall[1]:.1f}" in text
    for table in (TABLE_1_PSR, TABLE_3_SR, TABLE_2_LAST):
        for r in table:
            assert f"{r.overall[0]:.2f} ± {r.overall[1]:.1f}" in text, r.model


def test_rows_agree_with_each_other_and_with_the_fidelity_numbers():
    assert [r.model for r in TABLE_1_PSR] == [r.model for r in TABLE_1_PSR if r.model in {x.model for x in TABLE_3_SR}]
    for psr in TABLE_1_PSR:
        sr = row(TABLE_3_SR, psr.model)
        for puzzle in COLUMNS:  # a success scores 100, so SR never exceeds PSR, but for two printed Maze cells
            if (psr.model, puzzle) not in PRINTED_SR_ABOVE_PSR:
                assert sr.cells[puzzle][0] <= psr.cells[puzzle][0], (psr.model, puzzle)
    random_psr, random_sr = row(TABLE_1_PSR, "Random"), row(TABLE_3_SR, "Random")
    for puzzle, (psr, sr) in PAPER_RANDOM.items():
        assert random_psr.cells[puzzle][0] == psr and random_sr.cells[puzzle][0] == sr
    assert (random_psr.overall[0], random_sr.overall[0]) == (18.70, 12.20)  # as the paper prints them
    gpt4o = row(TABLE_1_PSR, "GPT-4o")
    mean = sum(v for v, _ in gpt4o.cells.values()) / len(COLUMNS)
    assert abs(mean - gpt4o.overall[0]) < 0.5


def test_rows_follow_the_runs_setting():
    full = {"puzzles": {"wire": {}, "atm": {}}, "meta": {"max_turns": 10, "max_mistakes": 3, "memory": "full"}}
    shown = published_rows([full])
    assert shown["puzzles"] == ["wire", "atm"] and len(shown["psr"]) == len(TABLE_1_PSR) + 1
    assert shown["psr"][-1][0] == "Realistic scripted pair (ours, measured)"
    assert shown["psr"][0][:3] == ["Human + GPT-4o (published, Table 1, 10 runs)", "100 ± 0.0", "100 ± 0.0"]
    last = {**full, "meta": {**full["meta"], "memory": "last"}}
    assert [r[0] for r in published_rows([last])["psr"]] == ["GPT-4o, latest message only (published, Table 2)"]
    assert published_rows([last])["sr"] == []  # Table 2 gives PSR only
    assert published_rows([{**full, "meta": {**full["meta"], "max_turns": 20}}]) == {}
    every = published_table(list(COLUMNS), "sr")
    assert every[2][-1] == "32.50 ± 1.5"  # GPT-4o's overall as printed when all ten puzzles are shown


def test_the_realistic_pair_row_is_current():
    """A part of examples/reference_rows.py's measurement, repeated: the stored row still holds."""
    from comma_env.run.reference_rows import REALISTIC_PAIR

    path = Path(__file__).resolve().parents[2] / "examples" / "reference_rows.py"
    script = load_script(path, "reference_rows_script")
    again = script.measure(REALISTIC_PAIR["episodes"], ["wire", "led", "memory"])
    for metric in ("psr", "sr"):
        for puzzle, cell in again[metric].items():
            assert tuple(REALISTIC_PAIR[metric][puzzle]) == tuple(cell), (metric, puzzle)
