"""Browser play, studies and the report over real HTTP and a real browser (comma_env.web)."""
