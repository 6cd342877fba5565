"""The run pipeline behind ``python -m comma_env.rollout``: the typed config (`config`) and
its checks (`checks`), the rollout itself (`rollout`), records and tables (`results`),
shards (`merge`), the output lock (`runlock`), provenance, secret redaction (`redact`), and
the paper's published numbers (`fidelity`)."""
