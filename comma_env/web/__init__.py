"""Looking at runs and playing in the browser.

- `comma_env.web.runs`: run folders read back as records and tables.
- `comma_env.web.replay`: the images a solver saw, redrawn from puzzle, seed and actions.
- `comma_env.web.plots`: the paper's figures (matplotlib, Agg).
- `comma_env.web.report`: the static HTML report (``python -m comma_env.report``).
- `comma_env.web.session` and `comma_env.web.server`: human play in the browser
  (``python -m comma_env.play``).

Heavy dependencies (matplotlib, FastAPI, uvicorn) are imported inside the modules that
need them: ``pip install -e ".[web]"``.
"""
