"""A leaderboard that checks its entries: ``python -m comma_env.leaderboard SUBMISSION... --out SITE``.

Every submitted episode is replayed and its recomputed outcome compared with the record, so a
submission cannot claim a score its transcripts do not earn. The site needs Jinja2 (the ``web`` extra).
"""
