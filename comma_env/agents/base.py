"""The policy interface, re-exported for the policies' package. It lives in the protocol
(`comma_env.protocol.policy`) because the environments' own adapters (single-role envs,
browser play) hold partners through it, and the environments must not import the policies."""

from comma_env.protocol.policy import Player, Policy, Reply, request_seed

__all__ = ["Player", "Policy", "Reply", "request_seed"]
