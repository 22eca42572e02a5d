"""Entry point of the Musterroll Excel add-in, musterroll_addin.xlam.

The add-in's Refit button calls its VBA RunMain, which runs
``import musterroll_addin; musterroll_addin.main()`` (the module is named after
the add-in file). ``main`` acts on the workbook active in Excel: it refits the campaign, or, when
a dice desk sheet is active, resolves its roll requests or updates that
tracker; see automation.excel.live.
"""
from automation.excel.live import main

__all__ = ["main"]
