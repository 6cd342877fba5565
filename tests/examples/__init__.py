"""The scripts of examples/: benchmarks, learners, recipes."""
