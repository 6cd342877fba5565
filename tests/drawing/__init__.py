"""The drawing helpers that the goldens cannot show alone (comma_env.drawing)."""
