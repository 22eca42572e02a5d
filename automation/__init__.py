"""Musterroll: the refit phase of WW2 wargame campaigns, kept in Excel."""

__version__ = "0.1.0"
