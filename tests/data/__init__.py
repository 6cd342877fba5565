"""Hand-labelled tables of the leak detector's tests."""
