"""The goldens: every solver picture and every request the rollout sends a model, as recorded."""
