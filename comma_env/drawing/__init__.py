"""Drawing functions: each turns a puzzle's `visible_state()` into the solver's image.

Drawing reads only the visible state, so the image can never show more (or less) than what
`env.unwrapped.visible_state` reports.
"""
