"""Looking at runs (the report) and playing in the browser (play, studies). Needs the ``web`` extra."""
