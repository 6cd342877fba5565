"""Looking at runs and playing in the browser.

- `comma_env.web.runs`: run folders read back as records and tables.
- `comma_env.web.replay`: the images a solver saw, redrawn from puzzle, seed and actions.
- `comma_env.web.plots`: the paper's figures (matplotlib, Agg).
- `comma_env.web.report`: the static HTML report (``python -m comma_env.report``).
- `comma_env.web.session` and `comma_env.web.server`: human play in the browser
  (``python -m comma_env.play``); `records` (session files and their episode records),
  `guard` (Host/Origin allow-list, body limit, security headers; OpenEnv uses it too),
  `limits` (creation limits, the admin token), `expiry` (games nobody finishes end as abandoned).
- `comma_env.web.study`, `lobby` and `studyapp`: collection mode
  (``python -m comma_env.play collect OUT_DIR ...``): the schedule, the lobby, the routes.

Heavy dependencies (matplotlib, FastAPI, uvicorn) are imported inside the modules that
need them: ``pip install -e ".[web]"``.
"""
