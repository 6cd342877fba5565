"""AsymPuzl (Cadet, Koh and Chin, 2025): a two-agent shape-colour puzzle under information
asymmetry, as the AEC environment ``comma/asympuzl-v0`` (`comma_env.asympuzl_v0`)."""
