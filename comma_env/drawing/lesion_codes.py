"""Integer codes of a lesion plan's colour field and surface, shared by the numpy
rasteriser (`lesions`) and the compiled kernels (`lesion_kernels`), which cannot read strings."""

FIELD_NONE, FIELD_BLOTCHES, FIELD_CONCENTRIC = 0, 1, 2
SURFACE_PLAIN, SURFACE_PEARLY, SURFACE_CRUST, SURFACE_WAXY = 0, 1, 2, 3
"""Surface kinds with a texture of their own (`_surface_code`): codes the compiled kernels read."""
