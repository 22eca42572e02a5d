"""Tamper evidence and auditing of campaign workbooks.

* :mod:`automation.audit.chain` -- sealing: the chain over the refit reports;
* :mod:`automation.audit.inputs` -- the input sheets (settings, tables...)
  recorded in the chain as each refit read them;
* :mod:`automation.audit.verify` -- ``musterroll verify`` without the key: the
  chain, its links and tags, the inputs;
* :mod:`automation.audit.rolls` -- each roll re-derived from the key and its
  label;
* :mod:`automation.audit.replay` -- with the key: every refit run again from
  what it read, and its sheets compared cell for cell;
* :mod:`automation.audit.desk` -- the dice desk's and trackers' logs, and
  physical dice entered by hand;
* :mod:`automation.audit.player` -- the Dice audit sheet of a player's export,
  and ``musterroll verify EXPORT.xlsx``.
"""
from __future__ import annotations

from automation.audit.chain import (
    History, Link, Reads, chain_links, history, is_dated_input, is_refit_output, seal, seal_of, workbook_system,
)
from automation.audit.verify import Verified, verify_book

__all__ = ["History", "Link", "Reads", "Verified", "chain_links", "history", "is_dated_input", "is_refit_output", "seal",
           "seal_of", "verify_book", "workbook_system"]
