"""AsymPuzl, its rules and its play (comma_env.asympuzl)."""
