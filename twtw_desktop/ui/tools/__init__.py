"""The map tools: one active at a time, fed the view's mouse and key events."""

from __future__ import annotations

from .base import Tool
from .cover import CoverLineTool
from .measure import MeasureTool
from .pick import PickTargetTool
from .select import SelectTool
from .throw import ThrowTool


def make_tools(view) -> list[Tool]:
    """The toolbar's tools, in toolbar order."""
    return [SelectTool(view), MeasureTool(view), CoverLineTool(view), ThrowTool(view)]


__all__ = [
    "CoverLineTool",
    "MeasureTool",
    "PickTargetTool",
    "SelectTool",
    "ThrowTool",
    "Tool",
    "make_tools",
]
