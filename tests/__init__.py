"""The test suite. Its folders mirror the package (tests/protocol/ tests comma_env/protocol/, ...);
helpers live in tests/support/, and tests/registry/ runs the generic checks on every registered puzzle."""
