from excel_helpers import excel  # noqa: F401  (the fake Excel, on Windows and on a Mac)
