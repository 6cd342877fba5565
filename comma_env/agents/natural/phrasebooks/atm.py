"""ATM in plain English: the expert follows the machine from the typed actions and what is said of the
screen, and of the balance only how it compares with $500; it never asks for the PIN or the balance."""

from __future__ import annotations

import copy
import re
from typing import Any

import numpy as np

from comma_env.agents.natural.belief import Decision
from comma_env.agents.natural.conditions import AT_LEAST, LATER, holds
from comma_env.agents.natural.phrasebooks.base import Memory, Phrasebook, State, Steps
from comma_env.agents.natural.reading import HEDGES, number, plain
from comma_env.agents.natural.words import choose
from comma_env.puzzles.atm import ADVICE_PIN, ADVICE_RULE, AMOUNTS, PIN_LENGTH, THRESHOLD, _back_to_menu, _route_to

VOCABULARY = ("balance", "deposit", "withdraw", "transaction", "continue", "confirm", "screen", "enter", "amount",
              "menu", "then", "and", "the", "press", "clear", "back")
_SCREENS = (("complete", r"transaction complete|thank you"),
            ("confirm", r"\bconfirm\s*:|confirm screen|asks? (?:me )?\"?confirm"),
            ("amount", r"choose an amount|amount screen|\$20\b|amounts?\b.*\$\d"),
            ("balance", r"available balance|balance (?:screen|page)|logged in|pin (?:worked|was accepted)|\baccepted\b|"
                        r"\bi'?m in\b|continue (?:and|or|/) back"),
            ("pin_entry", r"enter (?:your|the) pin|\bpin screen|asking for (?:my|the) pin|stars? and|asterisks?|"
                          r"nothing typed"),
            ("menu", r"choose a transaction|main menu|start screen|\bmenu\b|deposit (?:and|\+|or|/) withdraw"))
_LOGGED_IN = re.compile(r"logged in|after logging in|pin (?:worked|was accepted)|\baccepted\b|\bi'?m in\b|"
                        r"saw my balance|available balance|balance screen|balance page", re.IGNORECASE)
_COMPARE = re.compile(r"\b(under|below|less than|lower than|beneath|more than|over|above|at least|greater than|"
                      r"higher than|exceeds?|not (?:even )?(?:close to|near))\s*\$?\s*(\d[\d,]*)"
                      r"|(>=?|<=?)\s*\$?\s*(\d[\d,]*)", re.IGNORECASE)
_RULE = re.compile(r"\bbalance\b|\b500\b")
_KIND = re.compile(r"withdraw|take out|deposit|put in")
_IF = re.compile(r"(?<!tell me )\bif\b")
_FIVE_HUNDRED = re.compile(r"\b500\b")


def _is_rule(text: str) -> bool:
    """Whether `text` states the balance rule: a transaction after the balance or $500 ("balance is $500 or more?
    take out $300"), or before a condition on $500 ("withdraw 300 if it's over 500"); "tell me if" is no condition."""
    said = _RULE.search(text)
    if said and _KIND.search(text, said.end()):
        return True
    kind = _KIND.search(text)
    condition = kind and _IF.search(text, kind.end())
    return bool(condition and _FIVE_HUNDRED.search(text, condition.end()))


_GUARD = re.compile(rf"\W*+(?:if\s+)?([^:,]+?)(?:[:,]|{AT_LEAST}(?=\s))\s*(.+)")
"""A step under a condition: "if it's $500 or more: A", "if ur balance was 500+ tap 300", "Balance under $500: A"."""
_STEP_BREAKS = re.compile(r",|->|(?<=\s)\+(?=\s)|\bthen\b|\bafter(?:wards)?\b|\band\b(?=\s+(?:press|hit|push|tap|"
                          r"choose|pick|select|confirm|continue|type|enter|log|sign|go|put|key|punch|input))")
"""Where one step of advice ends and the next begins ("log in, then choose withdraw and confirm", "pin + enter")."""
_VAGUE = re.compile(r"\b(?:a few hundred|around|about|roughly|close to|near|between|enough|borderline|somewhere|"
                    r"not sure|don'?t know which side|which side)\b", re.IGNORECASE)


def _compare(text: str) -> str | None:
    """"above" (at least $500), "below", "vague" (said, but not decisive), or None (not said)."""
    if not re.search(r"\bbalance\b|\bmoney\b|\baccount\b|\bi have\b|\bit'?s\b|\bdollars\b|\$", text, re.IGNORECASE):
        return None
    found = []
    for match in _COMPARE.finditer(text):
        word = (match.group(1) or match.group(3) or "").lower()
        value = int((match.group(2) or match.group(4)).replace(",", ""))
        below = word in ("under", "below", "less than", "lower than", "beneath", "<", "<=") or word.startswith("not")
        decisive = value <= THRESHOLD if below else value >= THRESHOLD
        found.append(("below" if below else "above") if decisive else "vague")
    if found and not _VAGUE.search(text):
        return found[-1]
    if found or _VAGUE.search(text) and re.search(r"\bbalance|\bmoney|\bdollars|\$", text, re.IGNORECASE):
        return "vague"
    return None


class AtmPhrases(Phrasebook):
    conditions = True

    def start(self) -> Memory:
        return {"state": {"screen": None, "transaction": None, "logged_in": False, "digits": 0}, "notes": {}}

    def read(self, text: str, memory: Memory) -> None:
        state = memory["state"]
        text = plain(text, VOCABULARY)
        low = text.lower()
        screens = [(m.start(), name) for name, pattern in _SCREENS for m in re.finditer(pattern, low)]
        if screens:
            state["screen"] = max(screens)[1]
        transaction = re.findall(r"\b(withdraw|deposit)(?:al)?\s*(?::|\$|selected)|transaction:?\s*(withdraw|deposit)|"
                                 r"w/\s*(withdraw|deposit)|logged in with (withdraw|deposit)|"
                                 r"(withdraw|deposit) (?:selected|transaction)", low)
        if transaction:
            state["transaction"] = next(t for t in transaction[-1] if t)
        if _LOGGED_IN.search(low) or state.get("screen") in ("balance", "amount", "confirm"):
            state["logged_in"] = True
        typed = re.search(r"\b(two|three|one|four|\d)\s+(?:stars|asterisks|digits)", low)
        if typed:
            state["digits"] = number(typed.group(1))
        compared = _compare(low)
        if compared:
            state["balance"] = compared

    def typed(self, actions: list[str], memory: Memory) -> None:
        """Follow the machine through the typed actions (the PIN typed is the card's)."""
        state = memory["state"]
        for action in actions:
            screen = state.get("screen")
            if action.startswith("select_"):
                state["transaction"] = action.removeprefix("select_")
                state["screen"] = "balance" if state.get("logged_in") else "pin_entry"
                state["digits"] = 0
            elif action.startswith("press_") and action[6:] in ("*", *"0123456789"):
                state["digits"] = min(state.get("digits", 0) + 1, PIN_LENGTH)
            elif action == "press_clear":
                state["digits"] = 0
            elif action == "press_enter":
                if state.get("digits") == PIN_LENGTH:
                    state["logged_in"], state["screen"] = True, "balance"
                state["digits"] = 0
            elif action == "continue":
                state["screen"] = "amount"
            elif action.startswith("amount_"):
                state["screen"] = "confirm"
            elif action == "confirm":
                state["screen"] = "complete"
            elif action == "go_back":
                state["screen"] = {"confirm": "amount", "amount": "balance"}.get(screen or "", "menu")

    def decide(self, memory: Memory) -> Decision:
        state = memory["state"]
        screen, compared = state.get("screen"), state.get("balance")
        if screen is None and not state.get("logged_in"):
            return Decision(ask=["what the ATM's screen shows"])
        if compared == "vague":
            return Decision(ask=["whether your balance is at least $500 (just yes or no, not the amount)"])
        if compared in ("above", "below") and state.get("logged_in"):
            kind, amount = ("withdraw", 300) if compared == "above" else ("deposit", 100)
            machine = {"screen": screen or "balance", "selected_transaction": state.get("transaction"),
                       "balance": "$?", "pin_on_card": "", "pin_digits_entered": 0}
            return Decision(advice=_route_to(machine, kind, amount))
        if screen == "menu" and not state.get("logged_in"):
            return Decision(advice=["select_withdraw", ADVICE_PIN, ADVICE_RULE])
        if screen == "pin_entry":
            return Decision(advice=[ADVICE_PIN, ADVICE_RULE])
        return Decision(advice=[ADVICE_RULE])

    def facts(self, memory: Memory) -> list[str]:
        return [f"{key}: {value}" for key, value in memory["state"].items()]

    # -- the expert's words ----------------------------------------------------------------------------
    def instruction(self, action: str, count: int, seen: State, rng: np.random.Generator) -> str:
        if action == ADVICE_PIN:
            return choose(rng, ("Enter your PIN on the keypad, then press enter.",
                                "Type the PIN from your card on the keypad and press enter."))
        if action == ADVICE_RULE:
            return choose(rng, ("If your balance is at least $500, withdraw $300; otherwise deposit $100.",
                                "Look at your balance: at least $500 means withdraw $300; less than that, "
                                "deposit $100."))
        words = {"select_withdraw": "Choose Withdraw on the menu.", "select_deposit": "Choose Deposit on the menu.",
                 "continue": "Press Continue.", "confirm": "Press Confirm.", "go_back": "Press Back.",
                 "press_enter": "Press enter.", "press_clear": "Press clear."}
        if action in words:
            return words[action]
        if action.startswith("amount_"):
            return f"Choose ${action.removeprefix('amount_')}."
        return action

    # -- the solver describes and reads advice -------------------------------------------------------
    def describe(self, state: State, rng: np.random.Generator) -> str:
        titles = {"menu": 'the menu, "Choose a transaction"', "pin_entry": "the PIN entry screen",
                  "balance": "the available balance screen", "amount": "the screen to choose an amount",
                  "confirm": "the confirm screen", "complete": "the transaction complete screen"}
        screen = state["screen"]
        parts = [f"The ATM shows {titles.get(screen, screen)}."]
        if state.get("selected_transaction"):
            parts.append(f"Transaction: {state['selected_transaction']}.")
        if screen == "pin_entry":
            parts.append(f"{state['pin_digits_entered']} digits typed so far.")
        if state.get("selected_amount"):
            parts.append(f"Amount chosen: {state['selected_amount']}.")
        if state.get("status_message"):
            parts.append(f'It says "{state["status_message"]}".')
        parts.append("Buttons: " + ", ".join(state.get("on_screen_buttons") or ["none"]) + ".")
        return " ".join(parts)

    def understand(self, text: str, puzzle: Any) -> Steps:
        low = re.sub(r"\bthe amount\b[^.,;\d$]{0,40},\s*\$?(\d{2,3})\b(?!\s*(?:dollars?\s+)?(?:or|and|if)\b)", r"$\1",
                     plain(text, VOCABULARY).lower())  # "the amount I told you at the start, 300"
        low = re.sub(  # "this should be a withdrawal, not a deposit: ..." is a reason
                     r"\b(?:(?:should|must|has to|needs to) be|is|it'?s)\s+an?\s+(?:withdraw(?:al)?|deposit)\b|"
                     r"\b(?:not|instead of|rather than)\s+(?:an?\s+)?(?:withdraw(?:al)?|deposit)\b", " ", low)
        if HEDGES.search(low) or re.search(r"\beither\b|\blost my place\b", low):
            return Steps.unclear("Which transaction and amount exactly?")
        machine = copy.deepcopy(puzzle)  # each sentence is settled on the screen the steps before it reach
        actions: list[str] = []
        for sentence in re.split(r"[.;\n]", low):
            clauses: list[str] = []
            before = re.search(r"(?:[:,]|\bthen\b)\s*(?=if\s)", sentence)  # "go back one screen, then: if ..."
            if before and not _RULE.search(sentence[:before.start()]):
                clauses += _STEP_BREAKS.split(sentence[:before.start()])
                sentence = sentence[before.end():]
            guard = _GUARD.match(sentence)
            if guard and sentence[guard.end(1):].startswith(",") and not re.match(r"\W*if\b", sentence):
                guard = None  # "back one screen, choose 100": a step, not a condition, before a comma without "if"
            if _is_rule(sentence):
                clauses.append(sentence)  # the balance rule is one step, however it is punctuated
            elif guard:
                question = _run(clauses, machine, actions)
                if question or machine.solved:
                    return Steps.unclear(question) if question else Steps(actions)
                verdict = holds(guard.group(1), machine.visible_state())
                if verdict == LATER:  # "if it's $500 or more: A" before the balance shows
                    return Steps.unclear("I can't see my balance yet. What should I do first?")
                if verdict is None:
                    clauses = _STEP_BREAKS.split(sentence)
                else:
                    branches = re.split(r"\b(?:otherwise|or else|else|if not)\b", guard.group(2), maxsplit=1)
                    clauses = _STEP_BREAKS.split(branches[0] if verdict else branches[-1] if len(branches) > 1 else "")
            else:
                clauses += _STEP_BREAKS.split(sentence)
            question = _run(clauses, machine, actions)
            if question:
                return Steps.unclear(question)
        return Steps(actions) if actions else Steps()


def _run(clauses: list[str], machine: Any, actions: list[str]) -> str | None:
    """Carry the steps `clauses` ask for out on `machine`, adding them to `actions`; a question when one is unclear."""
    for clause in clauses:
        clause = clause.strip(" ?!")
        steps = None if not clause or machine.solved else _clause(clause, machine)
        if isinstance(steps, str):
            return steps
        for action in steps or []:
            if action not in machine.valid_actions():
                return f"I can't do that on this screen ({machine.visible_state()['screen']}). What should I press?"
            machine.apply(action)
            actions.append(action)
    return None


def _clause(clause: str, machine: Any) -> list[str] | str | None:
    """The actions one step of advice asks for on `machine` (the balance rule logs in first when it must, to see the
    balance), a question (str), or None."""
    state = machine.visible_state()
    screen = state["screen"]
    cls = type(machine)
    if _is_rule(clause):
        if state.get("balance") is not None:
            return cls.expand_advice(ADVICE_RULE, state)
        ahead, route = copy.deepcopy(machine), cls.expand_advice(ADVICE_RULE, state)
        for action in route:
            ahead.apply(action)
        return route + cls.expand_advice(ADVICE_RULE, ahead.visible_state())
    conditional = re.search(r"\bif the screen (?:says|shows) (withdraw|deposit) \$(\d+)", clause)
    if conditional:
        right = (state.get("selected_transaction"), state.get("selected_amount")) == \
            (conditional.group(1), f"${conditional.group(2)}")
        return None if right else "The screen doesn't say that. What should I do?"
    if re.search(r"\b(?:log|sign) ?in\b", clause) and not re.search(r"\bpin\b|\bcode\b", clause):
        clause += " pin and press enter"  # logging in is the PIN, then Enter
    said = re.search(r"(?<![\d$])\d(?:[\s-]?\d){3}(?![\d.])", clause)  # "key in 6935"
    if said or re.search(r"\bpin\b|\b(?:pass)?code\b|\bdigits\b.*\bcard\b|\b(?:card'?s|secret) (?:number|digits)\b",
                         clause):
        if screen != "pin_entry" and state.get("balance") is not None:
            return None  # logged in already: that step is done
        if screen != "pin_entry":
            return "I'm not on the PIN screen. What should I do first?"
        digits = state["pin_on_card"]
        source = re.search(r"\bfrom\s+(?:the|your|my)\s+(\w+)", clause)
        if (said and re.sub(r"\D", "", said.group(0)) != digits) or (source and source.group(1) != "card"):
            return "The PIN I have is the one on my card. Which PIN do you mean?"
        typed = state["pin_digits_entered"]
        if re.search(r"\bfinish|\brest of\b|\bremaining\b", clause):
            presses = [f"press_{d}" for d in digits[typed:]]
        else:
            presses = (["press_clear"] if typed else []) + [f"press_{d}" for d in digits]
        enter = re.search(r"\b(?:press|hit|push|tap|confirm with|finish with|end with|click) (?:the )?(?:green )?"
                          r"(?:enter|ok|button)|\benter key|\b(?:log|sign) ?(?:in|on)\b|\band enter\b|then enter",
                          clause)
        return presses + (["press_enter"] if enter else [])
    if re.search(r"\b(?:press|hit|push|tap|click)\s+(?:the\s+)?clear\b|\bclear (?:it|them|the (?:pin|digits|entry))\b|"
                 r"^clear$", clause):  # not "that's clear"
        return ["press_clear"]
    if re.search(r"\b(?:press|hit|push|tap|confirm with|finish with|end with|click)\s+(?:the\s+)?(?:green\s+)?enter\b|"
                 r"^(?:the\s+)?(?:green\s+)?(?:enter|ok|button)(?: key)?\s*$|^(?:and\s+)?(?:confirm|ok)\b|"
                 r"\b(?:press|hit|push|tap|click)\s+(?:the\s+)?(?:ok|green button)\b", clause) and \
            screen == "pin_entry":
        typed = state["pin_digits_entered"]  # Enter on part of the PIN is a sure "Incorrect PIN"
        return ["press_enter"] if typed == len(state["pin_on_card"]) else \
            f"I've typed {typed} of the PIN's {len(state['pin_on_card'])} digits. Should I type my card's PIN first?"
    if re.search(r"\b(?:back to the (?:main )?menu|main menu)\b", clause):
        back = _back_to_menu(state)
        rest = re.search(r"\b(deposit|withdraw)", clause)
        return back + ([f"select_{rest.group(1)}"] if rest else [])
    if re.search(r"\bgo back\b|\bpress back\b|(?<!report )(?<!get )(?<!come )\bback\b(?: (?:1|a) (?:screen|step))?$",
                 clause):
        return ["go_back"]
    amount = re.search(r"\$\s*(\d+)|\b(\d+)\s*dollars?\b|\b(hundred)[- ]dollar|"  # or a bare "pick 300"
                       r"^(?:you\s+)?(?:(?:choose|pick|select|tap|press|hit|amount)\s+)?(?:the\s+)?(\d{2,3})$", clause)
    chosen_amount = re.search(r"\b(?:choose|pick|select|tap|press|hit)\s+(?:the\s+)?\$?\d", clause)
    if amount and (screen == "amount" or screen == "balance" and chosen_amount):  # the amounts are one Continue on
        value = 100 if amount.group(3) else int(amount.group(1) or amount.group(2) or amount.group(4))
        on = [] if screen == "amount" else ["continue"]
        return on + [f"amount_{value}"] if value in AMOUNTS else f"There's no ${value} option. Which amount?"
    if amount and f"${amount.group(1) or amount.group(2) or amount.group(4)}" != state.get("selected_amount") and \
            chosen_amount:  # "choose 100" elsewhere
        return f"I can't choose an amount on this screen ({screen}). What should I press first?"
    kind = re.search(r"\b(withdraw|take (?:money|cash) out|take out|cash out|deposit|put (?:money )?in)", clause)
    if kind:
        chosen = "withdraw" if kind.group(1).startswith(("withdraw", "take", "cash")) else "deposit"
        value = int(amount.group(1) or amount.group(2) or amount.group(4) or 100) if amount else 0
        later = re.search(r"\b(?:later|eventually|once)\b", clause)  # "you'll withdraw $300 later; first log in"
        if value in AMOUNTS and screen in ("menu", "pin_entry") and not later:
            return _route_to(state, chosen, value)  # "withdraw $300": the whole transaction, logging in on the way
        if screen == "menu":
            return [f"select_{chosen}"]
        if state.get("selected_transaction") == chosen and (re.search(r"\bmenu\b|\b(?:choose|select|pick)\b", clause)
                                                            and not amount):
            return None  # chosen already: that step is done
        if screen in ("balance", "amount") and not amount:
            return "How much should I " + chosen + "?" if state.get("selected_transaction") == chosen else \
                f"Should I go back to the menu and choose {chosen}?"
    if re.search(r"\bcontinue\b", clause):
        return ["continue"]
    if re.search(r"\bconfirm\b", clause):
        return ["confirm"]
    if re.search(r"\b(?:choose|pick|select)\b.*\b(?:transaction|amount|option)\b|\bthe button\b", clause):
        return "Which one exactly?"
    return None
