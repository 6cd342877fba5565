"""Looking at runs and playing in the browser: the report (`report`, `replay`, `plots`, `runs`)
and human play (`server`, `session`, `records`, `guard`, `limits`, `expiry`; studies: `study`,
`lobby`, `studyapp`). Needs the ``web`` extra."""
