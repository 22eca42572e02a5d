"""Command-line commands of this part (registered by automation.commands)."""
from __future__ import annotations

import argparse


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add this part's commands to the parser."""
