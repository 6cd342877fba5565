"""The documentation: the strict build and every Python block, executed."""
