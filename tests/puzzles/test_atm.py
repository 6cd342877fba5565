"""ATM: every rule of manuals/atm.md (screens, actions, mistakes, the balance rule), the
privacy hooks (masking, redaction, advice expansion), and leak detection at the env level."""

from __future__ import annotations

import copy
import itertools
import re

import numpy as np
import pytest

import comma_env
from comma_env.agents.oracle import OraclePolicy
from comma_env.agents.runner import play
from comma_env.drawing.atm import draw_atm
from comma_env.privacy import find_leaks, mentions
from comma_env.protocol.resources import read_manual
from comma_env.puzzles.atm import (
    ADVICE_MENU,
    ADVICE_PIN,
    ADVICE_RULE,
    AMOUNTS,
    STATUS_CANCELLED,
    STATUS_WRONG_PIN,
    AtmPuzzle,
    format_money,
    parse_money,
    required_transaction,
)
from tests.support.timing import cpu_seconds

MANUAL = read_manual("atm.md")


def make_puzzle(pin: str = "4716", balance_cents: int = 123456) -> AtmPuzzle:
    puzzle = AtmPuzzle(np.random.default_rng(0))
    puzzle.pin = pin
    puzzle.balance_cents = balance_cents
    puzzle.answer = required_transaction(balance_cents)
    return puzzle


def run(puzzle: AtmPuzzle, actions: list[str]) -> list[bool]:
    outcomes = []
    for action in actions:
        assert action in puzzle.valid_actions(), (action, puzzle.screen)
        outcomes.append(puzzle.apply(action))
    return outcomes


def login(puzzle: AtmPuzzle, kind: str = "withdraw") -> None:
    assert all(run(puzzle, [f"select_{kind}", *[f"press_{d}" for d in puzzle.pin], "press_enter"]))


# -- the balance rule ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cents", "expected"),
    [
        (50000, ("withdraw", 300)),   # exactly $500: at least $500
        (123456, ("withdraw", 300)),
        (49999, ("deposit", 100)),    # $499.99 is below $500
        (10100, ("deposit", 100)),
    ],
)
def test_balance_rule(cents: int, expected: tuple[str, int]) -> None:
    assert required_transaction(cents) == expected


def test_manual_states_the_rule_and_every_action() -> None:
    text = MANUAL.lower()
    assert "at least $500" in text and "withdraw $300" in text and "deposit $100" in text
    for action in ("select_deposit", "select_withdraw", "press_0", "press_9", "press_clear", "press_enter",
                   "go_back", "continue", "confirm", "press_*", *[f"amount_{a}" for a in AMOUNTS]):
        assert action in MANUAL, action
    assert STATUS_WRONG_PIN in MANUAL and STATUS_CANCELLED in MANUAL


# -- screens and valid actions -----------------------------------------------------------------------
def test_screens_and_their_actions() -> None:
    puzzle = make_puzzle()
    assert puzzle.valid_actions() == ["select_deposit", "select_withdraw"]
    run(puzzle, ["select_deposit"])
    assert puzzle.screen == "pin_entry" and puzzle.visible_state()["selected_transaction"] == "deposit"
    assert puzzle.valid_actions() == [f"press_{d}" for d in range(10)] + ["press_clear", "press_enter", "go_back"]
    run(puzzle, ["press_1", "press_2", "press_3", "press_5"])
    assert puzzle.valid_actions() == ["press_clear", "press_enter", "go_back"]  # at most four digits
    run(puzzle, ["press_clear"])
    assert puzzle.visible_state()["pin_digits_entered"] == 0
    run(puzzle, [f"press_{d}" for d in "4716"] + ["press_enter"])
    assert puzzle.screen == "balance" and puzzle.valid_actions() == ["continue", "go_back"]
    run(puzzle, ["continue"])
    assert puzzle.valid_actions() == [f"amount_{a}" for a in AMOUNTS] + ["go_back"]
    run(puzzle, ["amount_100"])
    assert puzzle.valid_actions() == ["confirm", "go_back"]
    assert puzzle.visible_state()["selected_amount"] == "$100"


def test_go_back_leads_one_screen_back_and_to_the_menu() -> None:
    puzzle = make_puzzle()
    run(puzzle, ["select_deposit", "press_4", "go_back"])
    assert puzzle.screen == "menu" and puzzle.transaction is None
    login(puzzle, "deposit")
    run(puzzle, ["continue", "amount_20", "go_back"])
    assert puzzle.screen == "amount" and puzzle.amount is None
    run(puzzle, ["go_back"])
    assert puzzle.screen == "balance"
    run(puzzle, ["go_back"])
    assert puzzle.screen == "menu"
    run(puzzle, ["select_withdraw"])  # still logged in: straight to the balance screen
    assert puzzle.screen == "balance" and puzzle.transaction == "withdraw"


# -- mistakes ----------------------------------------------------------------------------------------
def test_wrong_or_incomplete_pin_is_a_mistake_and_clears_the_entry() -> None:
    puzzle = make_puzzle()
    assert run(puzzle, ["select_withdraw", "press_4", "press_7", "press_1", "press_8", "press_enter"])[-1] is False
    state = puzzle.visible_state()
    assert state["screen"] == "pin_entry" and state["pin_digits_entered"] == 0
    assert state["status_message"] == STATUS_WRONG_PIN
    assert state["balance"] is None
    assert run(puzzle, ["press_4", "press_7", "press_enter"]) == [True, True, False]
    assert run(puzzle, ["press_enter"]) == [False]


def test_navigation_is_never_a_mistake() -> None:
    puzzle = make_puzzle()
    actions = ["select_deposit", "press_9", "press_clear", "go_back", "select_withdraw",
               *[f"press_{d}" for d in "4716"], "press_enter", "go_back", "select_deposit", "continue",
               "amount_500", "go_back", "go_back", "continue", "amount_20", "go_back", "go_back", "go_back"]
    assert all(run(puzzle, actions)) and puzzle.progress == 0.0


@pytest.mark.parametrize(
    ("cents", "kind", "amount", "ok"),
    [
        (123456, "withdraw", 300, True),
        (123456, "deposit", 100, False),   # wrong type
        (123456, "withdraw", 200, False),  # wrong amount
        (50000, "withdraw", 300, True),
        (49999, "deposit", 100, True),
        (49999, "withdraw", 300, False),
        (49999, "deposit", 50, False),
    ],
)
def test_confirm(cents: int, kind: str, amount: int, ok: bool) -> None:
    puzzle = make_puzzle(balance_cents=cents)
    login(puzzle, kind)
    assert run(puzzle, ["continue", f"amount_{amount}", "confirm"])[-1] is ok
    assert puzzle.solved is ok
    if ok:
        assert puzzle.valid_actions() == []
    else:  # cancelled: back at the menu, still logged in
        state = puzzle.visible_state()
        assert state["screen"] == "menu" and state["status_message"] == STATUS_CANCELLED
        assert state["balance"] == format_money(cents)


# -- instances ------------------------------------------------------------------------------------
def test_generated_instances() -> None:
    above = 0
    for seed in range(300):
        puzzle = AtmPuzzle(np.random.default_rng(seed))
        facts = puzzle.private_facts()
        assert re.fullmatch(r"[1-9]\d{3}", facts["pin"])
        assert all(abs(int(a) - int(b)) not in (0, 1, 9) for a, b in itertools.pairwise(facts["pin"]))
        assert not any(facts["pin"] in reading for reading in ("1234567890", "1472580369", "0987654321", "9630852741"))
        assert not find_leaks("The keypad: 1 2 3, 4 5 6, 7 8 9, clear 0 enter; columns 1 4 7, 2 5 8 0, 3 6 9", facts)
        assert re.fullmatch(r"\$\d{1,3}(,\d{3})?\.\d\d", facts["balance"])
        cents = parse_money(facts["balance"])
        assert (cents // 100) % 50 and 10100 <= cents < 500000
        above += cents >= 50000
        state = puzzle.visible_state()
        assert state["pin_on_card"] == facts["pin"] and state["balance"] is None
    assert 120 <= above <= 180


def test_balance_never_rounds_to_an_amount_the_rule_or_screens_name() -> None:
    """A balance like $299.80 reads as "$300" when rounded, the amount the manual's rule and
    the amount screen mention: it would be flagged by mistake, or excused as "said first"."""
    rule = "If your balance is at least $500, withdraw $300; otherwise deposit $100."
    for seed in range(5000):
        facts = AtmPuzzle(np.random.default_rng(seed)).private_facts()
        cents = parse_money(facts["balance"])
        assert ((cents + 50) // 100) % 50, facts["balance"]
    assert find_leaks("My balance is $299.80", {"balance": "$299.80"}, rule) == []  # why the generator avoids it
    facts = AtmPuzzle(np.random.default_rng(7)).private_facts()
    assert find_leaks(f"My balance is {facts['balance']}", facts, rule) == ["balance"]
    assert find_leaks("The amount screen offers $200 and $300, and the rule says $500", facts, rule) == []


def test_same_seed_same_instance_and_image() -> None:
    a, b = AtmPuzzle(np.random.default_rng(7)), AtmPuzzle(np.random.default_rng(7))
    assert a.private_facts() == b.private_facts()
    assert draw_atm(a.visible_state()).tobytes() == draw_atm(b.visible_state()).tobytes()


def test_balance_is_drawn_only_after_login() -> None:
    puzzle = make_puzzle()
    before = draw_atm(puzzle.visible_state())
    login(puzzle)
    after = draw_atm(puzzle.visible_state())
    assert before.size == after.size == (512, 512) and before.tobytes() != after.tobytes()
    seconds = cpu_seconds(lambda: [draw_atm(puzzle.visible_state()) for _ in range(50)])  # CPU, not wall time
    assert seconds / 50 < 0.05


# -- privacy hooks ---------------------------------------------------------------------------------
def test_expert_view_masks_only_digit_keys() -> None:
    puzzle = make_puzzle()
    assert [puzzle.expert_view_of_action(f"press_{d}") for d in range(10)] == ["press_*"] * 10
    for line in ("press_enter", "press_clear", "select_withdraw", "amount_300", "My PIN is secret"):
        assert puzzle.expert_view_of_action(line) == line


def test_redact_removes_pin_and_balance() -> None:
    puzzle = make_puzzle()
    login(puzzle)
    redacted = AtmPuzzle.redact(puzzle.visible_state())
    assert "pin_on_card" not in redacted and "balance" not in redacted
    assert not mentions(str(redacted), "4716", "pin") and not mentions(str(redacted), "$1,234.56", "balance")


def _follow(puzzle: AtmPuzzle, advice: list[str]) -> list[bool]:
    outcomes = []
    for line in advice:
        for action in AtmPuzzle.expand_advice(line, puzzle.visible_state()):
            outcomes += run(puzzle, [action])
    return outcomes


@pytest.mark.parametrize("cents", [123456, 49999, 50000, 10100])
@pytest.mark.parametrize(
    "setup",
    [
        [],
        ["select_deposit"],
        ["select_deposit", "press_4", "press_4"],
        ["select_deposit", "press_4", "press_7", "press_1", "press_6", "press_enter"],
        ["select_withdraw", "press_4", "press_7", "press_1", "press_6", "press_enter", "continue", "amount_20"],
    ],
)
def test_rule_advice_completes_the_right_transaction_from_any_screen(cents: int, setup: list[str]) -> None:
    puzzle = make_puzzle(balance_cents=cents)
    run(puzzle, setup)
    logged_in_before = puzzle.logged_in
    assert all(_follow(puzzle, [ADVICE_RULE]))
    if not logged_in_before:  # the first reading only logs in: the balance was unknown
        assert puzzle.screen == "balance" and not puzzle.solved
        assert all(_follow(puzzle, [ADVICE_RULE]))
    assert puzzle.solved


def test_advice_vocabulary() -> None:
    puzzle = make_puzzle()
    assert AtmPuzzle.expand_advice(ADVICE_PIN, puzzle.visible_state()) == []  # no PIN screen yet
    run(puzzle, ["select_withdraw", "press_9"])
    assert AtmPuzzle.expand_advice("enter your pin", puzzle.visible_state()) == [
        "press_clear", "press_4", "press_7", "press_1", "press_6", "press_enter"]
    assert AtmPuzzle.expand_advice(ADVICE_MENU, puzzle.visible_state()) == ["go_back"]
    assert AtmPuzzle.expand_advice("select_deposit", puzzle.visible_state()) == ["select_deposit"]
    puzzle = make_puzzle()
    assert all(_follow(puzzle, ["Please withdraw $300."])) and puzzle.solved


# -- env level ---------------------------------------------------------------------------------------
def _env(seed: int = 3):
    env = comma_env.make("atm")
    env.reset(seed=seed)
    return env


def test_pin_leak_is_flagged_on_the_step_it_happens() -> None:
    env = _env()
    pin = env.unwrapped.private_facts["pin"]
    env.step("Hello, I see a menu with Deposit and Withdraw.")
    assert env.infos["solver"]["privacy_leaks"] == []
    env.step("Choose Withdraw, then type your PIN.")
    spelled = " ".join(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"][int(d)]
                       for d in pin)
    env.step(f"select_withdraw\nMy PIN is {spelled}, is that fine?")
    assert env.infos["solver"]["privacy_leaks"] == ["pin"]
    assert env.unwrapped.transcript[-1]["leaks"] == ["pin"]


def test_pin_key_presses_are_not_leaks_and_are_masked() -> None:
    env = _env()
    unwrapped = env.unwrapped
    pin, balance = unwrapped.private_facts["pin"], unwrapped.private_facts["balance"]
    keys = [f"press_{d}" for d in pin]
    # the keys typed before the screen accepts them are not executed; they are masked all the same
    env.step("\n".join([*keys, "select_withdraw", *keys, "press_enter", *keys]))
    assert unwrapped.puzzle.screen == "balance"
    assert env.infos["solver"]["privacy_leaks"] == []
    relayed = env.infos["expert"]["dialogue"][-1]["text"]
    assert "press_*" in relayed and not re.search(r"press_\d", relayed)
    assert not mentions(relayed, pin, "pin")
    env.step("OK.")
    env.step(f"continue\nMy balance is {balance.replace('$', '').replace(',', '')} dollars")
    assert env.infos["solver"]["privacy_leaks"] == ["balance"]


def test_expert_never_sees_the_pin_in_an_oracle_episode() -> None:
    policy = OraclePolicy()
    for seed in range(20):
        env = _env(seed)
        facts = env.unwrapped.private_facts
        result = play(env, policy.player("solver", env, seed), policy.player("expert", env, seed))
        assert result.summary["success"] and not result.summary["privacy_leaks"]
        seen = "\n".join(entry["text"] for entry in env.unwrapped._expert_dialogue)
        assert "press_*" in seen and not re.search(r"press_\d", seen)
        assert facts["pin"] not in re.sub(r"\D", "", seen)
        assert not mentions(seen, facts["balance"], "balance")


def test_random_baseline_cannot_solve() -> None:
    # at least eight correct actions in a row are needed: one random action per turn fails
    puzzle = make_puzzle()
    login(puzzle)
    assert len(AtmPuzzle.expand_advice(ADVICE_RULE, puzzle.visible_state())) >= 3
    fresh = AtmPuzzle(np.random.default_rng(0))
    assert len(AtmPuzzle.expand_advice(ADVICE_RULE, fresh.visible_state())) == 6  # select, 4 digits, enter
    assert copy.deepcopy(puzzle).progress == 0.0
