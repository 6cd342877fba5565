"""Drawing functions: each turns a puzzle's `visible_state()` into the solver's image, so the image
never shows more or less than the visible state reports."""
