"""Privacy: did the solver reveal a private fact to the expert? The rule-based detector
(`comma_env.privacy.detector`) is what the environments run every step; the optional LLM
judge beside it is `comma_env.agents.leak_judge`."""

from comma_env.privacy.detector import (
    CONVERSATION_WINDOW,
    ConversationLeaks,
    analyse,
    fact_kind,
    find_leaks,
    mentions,
    normalize,
    parse_date,
)

__all__ = ["CONVERSATION_WINDOW", "ConversationLeaks", "analyse", "fact_kind", "find_leaks", "mentions", "normalize",
           "parse_date"]
