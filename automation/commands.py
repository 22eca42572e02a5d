"""Workbook commands of the command line (new, refit, undo, demo, ...).

Each command calls a service function; the ribbon add-in calls the same ones.
"""
from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the workbook commands to the parser (filled in as they are built)."""
