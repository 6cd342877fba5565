"""Exit codes of the command-line tools (rollout, report, export): one per kind of outcome."""

EXIT_OK = 0
"""Done."""
EXIT_RUN_ERROR = 1
"""The work failed on the way (a server, the disk, a lock held by another run); what was
finished is saved."""
EXIT_CONFIG_ERROR = 2
"""The command line or configuration is wrong; nothing ran and no folder was left behind."""
