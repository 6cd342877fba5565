"""Helpers of the tests: the loopback model server, processes that report their port in a file,
scripted players, the docs build, script loading, timing."""
