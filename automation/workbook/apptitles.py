"""docProps/app.xml's worksheet titles and count (HeadingPairs and
TitlesOfParts), kept in step with the sheets an append adds or undo removes.

A long campaign's app.xml lists a thousand titles. The titles are read from
ElementTree's parse of the part, and only the titles an edit touches (the last
of the worksheets' group, those removed) are located in its text; a part laid
out otherwise than Excel lays it out is located whole.

An append that adds titles knows where its edits leave the three places the
next append edits (the group's count, the vector's size, the end of the last
title: :func:`titles_facts`), and keeps them with what the gate found in the
file it writes (:mod:`automation.workbook.gatememo`, named by the file's zip
directory, which pins the part's CRC-32): the next append to that file edits
the part there (each place checked to hold what it is said to), without
parsing a thousand titles twice. The group's titles were the worksheets' when
they were told, and an append only adds worksheets to both; undo, which takes
titles out, reads them again."""
from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping, Sequence
from xml.etree import ElementTree

from automation.workbook.xmlparts import EP_NS, VT_NS, Edit, XmlDoc, XNode, apply_edits, decoded, escape_text, set_attr

Parse = Callable[[frozenset[str], Callable[[str, Mapping[str, str]], object] | None], XmlDoc]
LPSTR = frozenset({"lpstr"})
_EP, _VT = f"{{{EP_NS}}}", f"{{{VT_NS}}}"


TITLES = "#titles"  # the facts of the titles an append keeps with the gate's findings: (part, TITLES)
Facts = tuple  # (FACTS, count, size, the title's tag, count's text start, end, size's value start, end, title's end)
FACTS = "titles 1"


def app_titles(pkg: Any, worksheets: Sequence[str], add: Sequence[str] = (),
               remove: Sequence[str] = ()) -> dict[str, bytes]:
    """docProps/app.xml of the package ``pkg`` (an append's or undo's:
    :class:`automation.workbook.package._Package`), if it has one, with the
    titles of the sheets ``add`` and without those of ``remove``, when its
    titles list ``worksheets``; else nothing."""
    return app_titles_kept(pkg, worksheets, add, remove)[0]


def app_titles_kept(pkg: Any, worksheets: Sequence[str], add: Sequence[str] = (),
                    remove: Sequence[str] = ()) -> tuple[dict[str, bytes], dict[tuple[str, str], Facts]]:
    """:func:`app_titles`, and the facts of the titles of the part written
    (by its name and :data:`TITLES`), when an append added titles: kept with
    the gate's findings of the file written, they spare the next append the
    parse of its titles (:func:`titles_facts`)."""
    app = pkg.part_of("extended-properties", source="")
    if not app:
        return {}, {}
    pkg.gate.check_part(app)
    data = pkg.zip.read(app)
    kept = getattr(pkg.gate, "docs", {}).get((app, TITLES)) if add and not remove else None
    told = _told(data, app, kept, add) if kept is not None else None
    if told is not None:
        text, encoding, edits, facts = told
        return {app: apply_edits(text, edits).encode(encoding)}, {(app, TITLES): facts}
    found = app_titles_edits(data, lambda skip, keep: pkg.doc(app, skip, keep), worksheets, add, remove)
    if found is None:
        return {}, {}
    doc, edits = found
    facts = titles_facts(doc.text, edits, add) if add and not remove else None
    return {app: doc.encode(apply_edits(doc.text, edits))}, ({(app, TITLES): facts} if facts else {})


def _added(qname: str, add: Sequence[str]) -> str:
    return "".join(f"<{qname}>{escape_text(n)}</{qname}>" for n in add)


def titles_facts(text: str, edits: Sequence[Edit], add: Sequence[str]) -> Facts | None:
    """Where the edits of an append that adds ``add`` (:func:`_edits`: the
    titles after the last of the group, its count, the vector's size, on
    ``text``) leave the places the next append edits, and what they then
    hold; None when the edits are not those three in that order (the size
    attribute set where there was none, say)."""
    if len(edits) != 3:
        return None
    insert, count, size = edits
    close = text.rfind("</", 0, insert.start)
    qname = text[close + 2:insert.start - 1] if close >= 0 and text.endswith(">", 0, insert.start) else ""
    if not qname or insert.start != insert.end or insert.text != _added(qname, add) or \
            not count.end <= size.start <= size.end <= insert.start or not size.text.isdigit() or \
            not count.text.isdigit() or text[size.start - 1] not in "\"'":
        return None
    return _after(qname, insert, count, size)


def _after(qname: str, insert: Edit, count: Edit, size: Edit) -> Facts:
    """The facts after the three edits (in that order in the text: the count,
    the size, the titles inserted), each place moved by the edits before it."""
    d1 = len(count.text) - (count.end - count.start)
    d2 = len(size.text) - (size.end - size.start)
    return (FACTS, int(count.text), int(size.text), qname, count.start, count.end + d1, size.start + d1,
            size.end + d1 + d2, insert.end + d1 + d2 + len(insert.text))


def _told(data: bytes, part: str, facts: Facts, add: Sequence[str]
          ) -> tuple[str, str, list[Edit], Facts] | None:
    """The part's text and encoding, the edits that add ``add`` where ``facts``
    say (each place holding what they say: the count, the size as the value
    of an attribute ``size``, the last title's end tag), and the facts after
    them; None when any does not hold."""
    if not isinstance(facts, tuple) or len(facts) != 9 or facts[0] != FACTS:
        return None
    _, count, size, qname, cs, ce, vs, ve, end = facts
    text, encoding = decoded(data, part)
    close = f"</{qname}>"
    if not (0 < cs <= ce < vs <= ve < end <= len(text)) or text[cs:ce] != str(count) or text[cs - 1] != ">" or \
            not text.startswith("</", ce) or text[vs:ve] != str(size) or text[vs - 1] not in "\"'" or \
            text[ve] != text[vs - 1] or not text.endswith("size=" + text[vs - 1], 0, vs) or \
            not text.endswith(close, 0, end):
        return None
    insert, count_edit, size_edit = (Edit(end, end, _added(qname, add)), Edit(cs, ce, str(count + len(add))),
                                     Edit(vs, ve, str(size + len(add))))
    return text, encoding, [insert, count_edit, size_edit], _after(qname, insert, count_edit, size_edit)


def app_titles_edits(data: bytes, parse: Parse, worksheets: Sequence[str], add: Sequence[str] = (),
                     remove: Sequence[str] = ()) -> tuple[XmlDoc, list[Edit]] | None:
    """The part parsed and the edits that add the titles ``add`` to the
    worksheets' group and take ``remove`` out of it, with its count and the
    vector's size; None if the titles do not match ``worksheets`` (nothing to
    keep in step). ``data``: the part's bytes, passed by the gate;
    ``parse(skip, keep)``: the part parsed (see :func:`parse_xml`)."""
    try:
        tree = ElementTree.fromstring(data)
    except ElementTree.ParseError:
        tree = None  # (parse_xml says what is wrong with it)
    if tree is not None:
        found = _located(tree, parse, worksheets, add, remove)
        if found is not False:
            return found  # type: ignore[return-value]
    doc = parse(frozenset(), None)
    vectors = _vectors(doc.root.find("HeadingPairs", EP_NS), doc.root.find("TitlesOfParts", EP_NS))
    if vectors is None:
        return None
    pairs_v, titles_v = vectors
    counts = _odd(pairs_v.findall("variant", VT_NS))
    plan = _plan([doc.inner_text(c) if c is not None else None for c in counts],
                 [doc.inner_text(t) for t in titles_v.children], worksheets, add, remove)
    if plan is None:
        return None
    k, offset, count, _ = plan
    return doc, _edits(doc, counts[k], titles_v, dict(enumerate(titles_v.children[offset:offset + count])),
                       plan, add, len(titles_v.children))


def _located(tree: Any, parse: Parse, worksheets: Sequence[str], add: Sequence[str],
             remove: Sequence[str]) -> tuple[XmlDoc, list[Edit]] | None | bool:
    """The edits from the titles as ElementTree read them, locating only those
    edited; False when the part is not laid out as Excel lays it out (each
    title a ``vt:lpstr`` of text, no count a ``lpstr``)."""
    vectors = _vectors(tree.find(f"{_EP}HeadingPairs"), tree.find(f"{_EP}TitlesOfParts"), tree=True)
    if vectors is None:
        return None
    pairs_v, titles_v = vectors
    counts = _odd(pairs_v.findall(f"{_VT}variant"), tree=True)
    items = list(titles_v)
    every = [e for e in tree.iter() if isinstance(e.tag, str) and e.tag.rpartition("}")[2] == "lpstr"]
    if any(len(e) for e in every) or any(e.tag != f"{_VT}lpstr" for e in items) or \
            any(c is not None and c.tag.rpartition("}")[2] == "lpstr" for c in counts):
        return False
    plan = _plan(["".join(c.itertext()) if c is not None else None for c in counts],
                 [e.text or "" for e in items], worksheets, add, remove)  # (each title: text alone, as checked)
    if plan is None:
        return None
    k, offset, count, taken = plan
    place = {id(e): i for i, e in enumerate(every)}
    wanted = {g: place[id(items[offset + g])] for g in ({count - 1} if add else set()) | set(taken)}
    order, seen = set(wanted.values()), itertools.count()
    doc = parse(LPSTR, lambda local, attrs: next(seen) in order)
    located = _lpstrs(doc.root)
    vectors_x = _vectors(doc.root.find("HeadingPairs", EP_NS), doc.root.find("TitlesOfParts", EP_NS))
    if len(located) != len(order) or vectors_x is None:
        return False
    nodes = dict(zip(sorted(order), located))
    count_x = _odd(vectors_x[0].findall("variant", VT_NS))
    if len(count_x) != len(counts) or count_x[k] is None:
        return False
    return doc, _edits(doc, count_x[k], vectors_x[1], {g: nodes[o] for g, o in wanted.items()}, plan, add, len(items))


def _vectors(pairs: Any, titles: Any, tree: bool = False) -> tuple[Any, Any] | None:
    """The vectors of HeadingPairs and TitlesOfParts (XNodes, or ElementTree's with ``tree``)."""
    if pairs is None or titles is None:
        return None
    pairs_v, titles_v = (pairs.find(f"{_VT}vector"), titles.find(f"{_VT}vector")) if tree else \
        (pairs.find("vector", VT_NS), titles.find("vector", VT_NS))
    return None if pairs_v is None or titles_v is None else (pairs_v, titles_v)


def _odd(variants: Sequence[Any], tree: bool = False) -> list[Any]:
    """The first element of every second variant (a group's count), None for an empty one."""
    firsts = [(v[0] if len(v) else None) if tree else (v.children[0] if v.children else None) for v in variants]
    return [firsts[k + 1] for k in range(0, len(variants) - 1, 2)]


def _lpstrs(node: XNode) -> list[XNode]:
    """The located ``lpstr`` elements under ``node``, in document order."""
    out: list[XNode] = []
    for child in node.children:
        out += [child] if child.local == "lpstr" else _lpstrs(child)
    return out


def _plan(counts: Sequence[str | None], titles: Sequence[str], worksheets: Sequence[str], add: Sequence[str],
          remove: Sequence[str]) -> tuple[int, int, int, list[int]] | None:
    """(the group's count's place among the counts, the group's first title,
    its count, the places in it of the titles removed): the group is the first
    whose titles are all worksheets; None if there is none or nothing changes."""
    offset, known = 0, set(worksheets)
    for k, raw in enumerate(counts):
        if raw is None or not raw.strip().isdigit():
            return None
        count = int(raw)
        group = titles[offset:offset + count]
        if count and len(group) == count and all(t in known for t in group):
            break
        offset += count
    else:
        return None
    taken: list[int] = []
    for name in remove:
        hit = next((i for i in reversed(range(count)) if i not in taken and group[i] == name), None)
        if hit is not None:
            taken.append(hit)
    return (k, offset, count, taken) if len(add) != len(taken) else None


def _edits(doc: XmlDoc, count_node: XNode, titles_v: XNode, group: Mapping[int, XNode],
           plan: tuple[int, int, int, list[int]], add: Sequence[str], size: int) -> list[Edit]:
    _, _, count, taken = plan
    edits = []
    if add:
        last = group[count - 1]
        edits.append(Edit(last.end, last.end, _added(last.qname, add)))
    edits += [Edit(group[i].start, group[i].end, "") for i in taken]
    changed = len(add) - len(taken)
    return edits + [Edit(count_node.inner_start, count_node.inner_end, str(count + changed)),
                    set_attr(doc, titles_v, "size", str(size + changed))]


__all__ = ["TITLES", "app_titles", "app_titles_edits", "app_titles_kept", "titles_facts"]
