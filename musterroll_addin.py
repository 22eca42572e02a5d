"""Entry point of the Musterroll Excel add-in, musterroll_addin.xlam.

The add-in's Refit button calls its VBA RunMain, which runs
``import musterroll_addin; musterroll_addin.main()`` (the module is named after
the add-in file). ``main`` refits the campaign workbook active in Excel; see
automation.excel.live.
"""
from automation.excel.live import main

__all__ = ["main"]
