"""Where an append edits the lists of a workbook, carried from one append to the next.

Every append (a refit, an import, the desk's sheets) adds to the ends of
three lists that name every sheet: the workbook part's ``<sheets>`` and
``<definedNames>``, its relationships and the content types. It locates them
with a parse that skips their items (:func:`automation.workbook.xmlparts.parse_xml`
with ``skip``), but expat still reports each item to Python: at a hundred
dates, a thousand sheets, those parses are 6 ms of every append.

What such a parse locates is a few elements (the root, its children, and
theirs but for the items skipped), and an append knows how its own edits
move them (:func:`shifted`): it inserts text, and sets attributes in start
tags. So it keeps where those elements lie in the parts it writes with
what the gate found in the file it writes (:mod:`automation.workbook.gatememo`,
named by the file's zip directory, which pins each part's CRC-32 and
size); an append that parsed a part keeps where they lie in the file it
read as well. The next append to such a file takes the part's text with
its elements placed (:func:`doc_from`) instead of parsing it: each element
is checked to lie where it is said to (a start tag of its name there, and
its end tag), and its attributes and namespaces are read from its start
tag; anything else is parsed as before.

A sheet an append replaces (a form answered elsewhere) is found among the
items of ``<sheets>`` (:func:`sheet_items`), read from the text when they are
every element there, instead of by a parse that locates it alone.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from automation.workbook.xmlparts import XML_NS, Edit, XmlDoc, XNode, decoded, end_tag_at, start_tag

_TAG_NAME = re.compile(r"<([^\s/>!?]+)")  # the name of each start tag in a text
Facts = tuple  # (qname, start, inner_start, inner_end, end, children): plain values, which marshal keeps


def skip_key(skip: frozenset[str]) -> str:
    """The name of a parse's ``skip`` among the facts kept."""
    return ",".join(sorted(skip))


def facts_of(node: XNode) -> Facts:
    """Where ``node`` and the elements located in it lie."""
    return (node.qname, node.start, node.inner_start, node.inner_end, node.end,
            tuple(facts_of(child) for child in node.children))


def _node(facts: Facts, text: str, parent: Mapping[str, str]) -> XNode | None:
    qname, start, inner_start, inner_end, end, children = facts
    tag = start_tag(text, start) if text.startswith("<" + qname, start) else None
    if tag is None or tag[0] != qname or tag[2] != inner_start or not inner_start <= inner_end <= end <= len(text):
        return None
    _, attrs, _, empty = tag
    if empty:
        if not inner_start == inner_end == end:
            return None
    elif not end_tag_at(text, qname, inner_end, end):
        return None
    nsmap = parent
    declared = {k[6:]: v for k, v in attrs.items() if k == "xmlns" or k.startswith("xmlns:")}
    if declared:
        nsmap = {**parent, **declared}
    prefix, _, local = qname.rpartition(":")
    if prefix and prefix not in nsmap:
        return None
    nodes = []
    for child in children:
        node = _node(child, text, nsmap)
        if node is None:
            return None
        nodes.append(node)
    return XNode(qname, nsmap.get(prefix, ""), local, attrs, nsmap, start, inner_start, inner_end, end, tuple(nodes))


def doc_from(part: str, data: bytes, facts: Facts) -> XmlDoc | None:
    """Part ``part`` (its bytes ``data``) with its elements placed as ``facts``
    say, when each lies there; else None."""
    text, encoding = decoded(data, part)
    try:
        root = _node(facts, text, {"xml": XML_NS})
    except (ValueError, TypeError, IndexError):  # (facts of another form: parsed instead)
        return None
    return XmlDoc(part, text, encoding, root) if root is not None else None


def shifted(facts: Facts, edits: Sequence[Edit]) -> Facts | None:
    """``facts`` of a part's text after ``edits`` (None when one touches an
    element's name, the end of its start tag or its end tag: only text
    between them, attributes included, may change). A place past an edit
    moves by the length it adds. An insertion at an element's start goes
    before the element (it moves); one at the end of its content goes into
    it (that end moves, unless the element is empty, ``<x/>``: it goes after
    it); one at the start of its content or at its end stays after that place."""
    changes = sorted((e.start, e.end, len(e.text) - (e.end - e.start)) for e in edits)

    def moved(at: int, stays: bool) -> int:
        """``at`` moved by the edits before it, and by an insertion at ``at`` itself unless it ``stays``."""
        return at + sum(grows for start, end, grows in changes
                        if end < at or (end == at and (start < end or not stays)))

    def touched(low: int, high: int) -> bool:
        """Whether an edit changes or cuts into the text from ``low`` to ``high``."""
        return any(start < high and end > low and (start < end or low < start < high) for start, end, _ in changes)

    def shift(f: Facts) -> Facts | None:
        qname, start, inner_start, inner_end, end, children = f
        empty = inner_start == end
        if touched(start, start + 1 + len(qname)) or touched(inner_start - (2 if empty else 1), inner_start) or \
                (not empty and touched(inner_end, end)):
            return None
        moved_children = [shift(c) for c in children]
        if any(c is None for c in moved_children):
            return None
        return (qname, moved(start, False), moved(inner_start, True), moved(inner_end, empty), moved(end, True),
                tuple(moved_children))

    return shift(facts)


def keep_doc(docs: dict[tuple[str, str], Facts], doc: XmlDoc, skip: frozenset[str], edits: Sequence[Edit]) -> None:
    """Add to ``docs`` where the elements of ``doc`` (parsed with ``skip``)
    lie after ``edits``, if that can be told: every element an edit adds is
    one ``skip`` names (an item of a list; not a list made where there was
    none, which a parse would locate)."""
    if any(name.rpartition(":")[2] not in skip for e in edits for name in _TAG_NAME.findall(e.text)):
        return
    found = shifted(facts_of(doc.root), edits)
    if found is not None:
        docs[(doc.part, skip_key(skip))] = found


def sheet_items(doc: XmlDoc, holder: XNode, local: str, wanted: Sequence[int], count: int) -> list[XNode] | None:
    """The elements at places ``wanted`` among the items of ``holder`` (a
    list whose items a parse skipped), read from the text when the list holds
    no more ``<`` than ``count``, the number of ``local`` elements the part
    holds (as its parse by the gate found them): then every item is one of
    them, an empty element (one ``<`` each: no comment, no other element, no
    end tag among them; an attribute's value holds no ``<``), told apart by
    its ``<``. Else None. Each element found is of the holder's prefix and
    declares no namespace. A long campaign's list holds a thousand sheets:
    it is counted, not parsed."""
    qname = f"{holder.prefix}:{local}" if holder.prefix else local
    text = doc.text
    if any(i < 0 for i in wanted) or text.count("<", holder.inner_start, holder.inner_end) != count:
        return None
    starts, at = [], holder.inner_start
    for i in sorted(set(wanted)):
        while len(starts) <= i:
            at = text.find("<", at, holder.inner_end)
            if at < 0:
                return None
            starts.append(at)
            at += 1
    out = []
    for i in wanted:
        tag = start_tag(text, starts[i])
        if tag is None or tag[0] != qname or not tag[3] or any(k == "xmlns" or k.startswith("xmlns:") for k in tag[1]):
            return None
        out.append(XNode(qname, holder.ns, local, tag[1], holder.nsmap, starts[i], tag[2], tag[2], tag[2], ()))
    return out


__all__ = ["Facts", "doc_from", "facts_of", "keep_doc", "sheet_items", "shifted", "skip_key"]
