"""Decision forms: the sheet a person fills for a decision the refit waits
for, written ready to fill (one row per decision the rules offer now, its
choices as dropdowns, its quantities as validated cells, a line at the top
saying what to do with the rule number, and live CPP/FPP totals).

:mod:`.model` describes a form as data, :mod:`.draw` draws it with
XlsxWriter (for a player's export and for the master), and one module per
rule system builds its forms from the campaign state (:mod:`.bf`).
"""
