"""The run pipeline behind ``python -m comma_env.rollout``: command line, typed config and its
checks, plan, episodes, records and tables, shards, the output lock, provenance, redaction,
and the paper's published numbers beside our own."""
