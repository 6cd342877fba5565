"""The run pipeline behind ``python -m comma_env.rollout``: the command line before Hydra
(`cli`), the typed config (`config`) and its checks (`checks`), what a run does and where
(`plan`), the rollout itself (`rollout`) and its episodes (`episodes`), records and tables
(`results`), the settings games ran with (`settings`), shards (`merge`), the output lock
(`runlock`), provenance, secret redaction (`redact`), exit codes (`exits`), and the paper's
published numbers and our reference rows (`published`, `fidelity`, `reference_rows`)."""
