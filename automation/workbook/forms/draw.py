"""Drawing a :class:`~automation.workbook.forms.model.Form` on an XlsxWriter
worksheet: the plain line at the top, the live totals, the header, one row per
decision with its dropdowns and validated cells, free rows, and the page set
up to print one page wide with the top rows repeated.

Every formula is built here from cell positions and the campaign's own
numbers; nothing a person typed ever becomes part of one.
"""
from __future__ import annotations

import math
from typing import Any

from xlsxwriter.utility import xl_col_to_name, xl_rowcol_to_cell

from automation.workbook.forms.model import HEADER_ROW, TITLE_ROW, TOTALS_ROW, Choice, Form, FreeCost, Rule, Whole
from automation.workbook.forms.status import LABEL_COL, STATUS_COL, STATUS_LABEL, Status

INPUT_FILL = "#FFF2CC"  # the cells a person fills
OVERSPENT_FILL = "#F4B6B6"
MAX_LIST = 255  # Excel's limit on a dropdown's written list
LINE_HEIGHT = 15  # points per line of wrapped text
CHARS_PER_WIDTH = 0.95  # italic characters per unit of column width, with a margin
TITLE_CHARS_PER_WIDTH = 0.8  # bold 12-point characters per unit of column width, with a margin


def _formats(book: Any) -> dict[str, Any]:
    return {
        "title": book.add_format({"bold": True, "font_size": 12, "text_wrap": True, "valign": "top"}),
        "label": book.add_format({"bold": True, "align": "right"}),
        "total": book.add_format({"bold": True, "border": 1, "num_format": "0"}),
        "note": book.add_format({"italic": True, "font_color": "#595959", "text_wrap": True, "valign": "top"}),
        "status": book.add_format({"bold": True, "border": 2, "bg_color": INPUT_FILL, "align": "center"}),
        "head": book.add_format({"bold": True, "bg_color": "#D9E1F2", "border": 1, "text_wrap": True}),
        "given": book.add_format({"border": 1, "text_wrap": True, "valign": "top"}),
        "input": book.add_format({"border": 1, "bg_color": INPUT_FILL, "valign": "top"}),
        "offered": book.add_format({"border": 1, "italic": True, "font_color": "#404040", "text_wrap": True,
                                    "valign": "top"}),
        "cost": book.add_format({"border": 1, "num_format": "0", "font_color": "#404040", "valign": "top"}),
        "overspent": book.add_format({"bg_color": OVERSPENT_FILL, "font_color": "#9C0006", "bold": True}),
    }


def _validation(rule: Rule) -> dict[str, Any]:
    if isinstance(rule, Choice):
        source: Any = list(rule.values)
        if len(",".join(rule.values)) > MAX_LIST:
            raise ValueError(f"a dropdown of {len(rule.values)} values is longer than Excel allows")
        options = {"validate": "list", "source": source, "ignore_blank": True,
                   "error_title": "Not a choice", "error_message": ("One of: " + ", ".join(rule.values))[:255]}
    else:
        assert isinstance(rule, Whole)
        options = {"validate": "integer", "criteria": "between", "minimum": rule.low, "maximum": rule.high,
                   "ignore_blank": True, "error_title": "Not allowed",
                   "error_message": f"A whole number from {rule.low} to {rule.high}"}
    if rule.prompt:
        options["input_message"] = rule.prompt[:255]
    return options


STATUS_LINE = ("Set B2 to Ready when this sheet is complete: the refit reads it only then (sent back by a player, "
               "it counts as Ready). Nothing chosen and Ready is a valid answer.")


def _status(ws: Any, f: dict[str, Any], end: int, widths: list[float]) -> None:
    """A2 'Ready to use?', B2 its dropdown set to Not yet, and the plain line from C2 up to column ``end``
    (``widths``: the form's column widths, for the row's height)."""
    ws.write_string(TOTALS_ROW, LABEL_COL, STATUS_LABEL, f["label"])
    ws.write_string(TOTALS_ROW, STATUS_COL, Status.NOT_YET.value, f["status"])
    ws.data_validation(TOTALS_ROW, STATUS_COL, TOTALS_ROW, STATUS_COL, _validation(Choice.of(
        Status.choices(), "Ready: this sheet is complete and the refit may read it; Not yet: still being filled")))
    first, last = STATUS_COL + 1, end - 1
    if last < first:  # no room on this row: the line is in row 1
        return
    if last > first:
        ws.merge_range(TOTALS_ROW, first, TOTALS_ROW, last, STATUS_LINE, f["note"])
    else:
        ws.write_string(TOTALS_ROW, first, STATUS_LINE, f["note"])
    room = sum(widths[first:max(last, first) + 1]) or 20
    ws.set_row(TOTALS_ROW, LINE_HEIGHT * max(2, math.ceil(len(STATUS_LINE) / (room * CHARS_PER_WIDTH))) + 2)


def _widths(form: Form) -> list[float]:
    """The width of each of the form's own columns."""
    return [form.widths.get(c, form.kind.columns[i].width) for i, c in enumerate(form.columns)]


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _free_term(cost: FreeCost, r: int, value_letter: str) -> str:
    """One kind's cost in free row ``r`` (0-based): the kind is in column A,
    the item in column B, the number in the value column; every text in the
    formula is ours (the kind, the price list)."""
    kind, item, value = f"$A{r + 1}", f"$B{r + 1}", f"{value_letter}{r + 1}"
    count = f"IF(ISNUMBER({value}),{value},{1 if cost.blank_is_one else 0})"
    price = str(cost.per)
    if cost.prices:
        listed = ";".join(f"{_quoted(name)},{points}" for name, points in cost.prices)
        price = f"IFERROR(VLOOKUP({item},{{{listed}}},2,FALSE),0)"
    return f"IF({kind}={_quoted(cost.kind)},{price}*{count},0)"


def draw(book: Any, ws: Any, form: Form) -> None:
    """Draw ``form`` on the empty worksheet ``ws`` of the XlsxWriter ``book``
    (rows are written top to bottom, as XlsxWriter's constant-memory mode needs)."""
    f = _formats(book)
    columns = form.columns
    costs = form.cost_columns
    width = len(columns) + len(costs)
    value_col = columns.index(form.value_column)
    first, last = HEADER_ROW + 1, form.last_row
    for c, column in enumerate(columns):
        ws.set_column(c, c, form.widths.get(column, form.kind.columns[c].width))
    for i in range(len(costs)):
        ws.set_column(len(columns) + i, len(columns) + i, 8)
    # row 2 holds the status cell (A2 asks, B2 answers, then one plain line up to the totals' label), the
    # label and the live totals above each account's cost column; what finds no room there joins row 1
    have = ", ".join(f"{a.available} {a.name}" for a in form.accounts)
    names = " and ".join(f"{a.name} left" for a in form.accounts)
    label = (form.totals_label or f"{names} (of {have}; red: overspent):") if form.accounts else ""
    label_col = len(columns) - 1 if form.accounts else width
    line_end = label_col if form.accounts else width  # the plain line ends before this column
    title = form.title
    if line_end <= STATUS_COL + 1:
        title += " " + STATUS_LINE
    if label and label_col <= STATUS_COL:
        title, label = f"{title} {label}", ""
    # row 1: what to do
    across = (sum(_widths(form)) + 8 * len(costs)) * TITLE_CHARS_PER_WIDTH
    ws.set_row(TITLE_ROW, max(48, 16 * math.ceil(len(title) / across) + 4))
    ws.merge_range(TITLE_ROW, 0, TITLE_ROW, width - 1, title, f["title"])
    _status(ws, f, line_end, _widths(form))
    cells = []
    if label:
        ws.write_string(TOTALS_ROW, label_col, label, f["label"])
    for i, account in enumerate(form.accounts):
        cost_col = xl_col_to_name(len(columns) + i)
        left = f"={account.available}-SUM({cost_col}{first + 1}:{cost_col}{last + 1})"
        ws.write_formula(TOTALS_ROW, len(columns) + i, left, f["total"], account.available)
        cells.append(xl_rowcol_to_cell(TOTALS_ROW, len(columns) + i))
    for cell in cells:
        ws.conditional_format(cell, {"type": "cell", "criteria": "<", "value": 0, "format": f["overspent"]})
    # row 3: the header
    for c, name in enumerate(columns + costs):
        ws.write_string(HEADER_ROW, c, name, f["head"])
    # the decisions offered, then the free rows
    value_letter = xl_col_to_name(value_col)
    offered_width = form.widths.get("Offered", form.kind.column("Offered").width if "Offered" in columns else 0)
    for n, row in enumerate(form.rows):
        r = first + n
        text = str(row.values.get("Offered") or "")
        if offered_width and len(text) > offered_width:  # wrapped text: room for every line (no autofit on open)
            ws.set_row(r, LINE_HEIGHT * math.ceil(len(text) / (offered_width * CHARS_PER_WIDTH)))
        for c, column in enumerate(columns):
            v = row.values.get(column)
            style = f["input"] if column in row.rules or column == form.value_column else (
                f["offered"] if column == "Offered" else f["given"])
            if v is None or v == "":
                ws.write_blank(r, c, None, style)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                ws.write_number(r, c, v, style)
            else:
                ws.write_string(r, c, str(v), style)
        for i, account in enumerate(form.accounts):
            per = [cost for cost in row.costs if cost.account == account.name]
            cell = f"{value_letter}{r + 1}"
            if not per:
                ws.write_blank(r, len(columns) + i, None, f["cost"])
                continue
            cost = per[0]
            formula = (f'=IF({cell}="Yes",{cost.per},0)' if cost.yes
                       else f"=IF(ISNUMBER({cell}),{cell}*{cost.per},0)")
            ws.write_formula(r, len(columns) + i, formula, f["cost"], 0)
        for column, rule in row.rules.items():
            c = columns.index(column)
            ws.data_validation(r, c, r, c, _validation(rule))
    for r in range(first + len(form.rows), last + 1):
        for c, column in enumerate(columns):
            ws.write_blank(r, c, None, f["input"] if column != "Offered" else f["given"])
        for i, account in enumerate(form.accounts):
            terms = [_free_term(fc, r, value_letter) for fc in form.free_costs if fc.account == account.name]
            if terms:  # blank while the row is (a row the reader skips), its cost once it says what it is
                formula = f'=IF($A{r + 1}="","",{"+".join(terms)})'
                ws.write_formula(r, len(columns) + i, formula, f["cost"], "")
            else:
                ws.write_blank(r, len(columns) + i, None, f["cost"])
    if form.free_rows:
        for column, rule in form.free_rules.items():
            c = columns.index(column)
            ws.data_validation(first + len(form.rows), c, last, c, _validation(rule))
    ws.freeze_panes(HEADER_ROW + 1, 0)
    ws.repeat_rows(TITLE_ROW, HEADER_ROW)
    ws.fit_to_pages(1, 0)
    ws.set_landscape()
    ws.set_paper(9)  # A4
    ws.set_margins(left=0.4, right=0.4, top=0.5, bottom=0.5)
