"""The map view: the grid painter, the scene and its items, the overlays."""
