"""A small XML toolkit for editing package parts as text.

It keeps every byte it is not asked to change, so namespaces, prefixes,
``mc:Ignorable``, ``extLst`` and formatting survive (docProps/app.xml's sheet
titles included). Every part is parsed with expat, a document type (and so
any entity) refused, and each element is placed where expat reports its
start and end tags, so no edit lands anywhere but in an element expat read.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence
from xml.parsers import expat

from automation.errors import WorkbookFileError

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
XML_NS = "http://www.w3.org/XML/1998/namespace"
EP_NS = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"
VT_NS = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"

def escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(text: str) -> str:
    return escape_text(text).replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;")


_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def unescape(text: str) -> str:
    """XML character and entity references to text, in one pass."""
    def one(m: re.Match[str]) -> str:
        ref = m.group(1)
        return _NAMED.get(ref) or chr(int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:]))
    return re.sub(r"&(#[xX][0-9A-Fa-f]+|#[0-9]+|amp|lt|gt|quot|apos);", one, text) if "&" in text else text


class XNode:
    """One element: where its start tag, content and end lie in the document text.

    A plain class with slots, not a dataclass: a large part has tens of
    thousands of elements, and building them is most of parsing it. Nodes are
    compared by identity and never changed once parsed."""

    __slots__ = ("qname", "ns", "local", "attrs", "nsmap", "start", "inner_start", "inner_end", "end", "children")

    def __init__(self, qname: str, ns: str, local: str, attrs: Mapping[str, str], nsmap: Mapping[str, str],
                 start: int, inner_start: int, inner_end: int, end: int, children: tuple["XNode", ...]) -> None:
        self.qname, self.ns, self.local, self.attrs, self.nsmap = qname, ns, local, attrs, nsmap
        self.start, self.inner_start, self.inner_end, self.end, self.children = \
            start, inner_start, inner_end, end, children

    def __repr__(self) -> str:
        return f"<XNode {self.qname} at {self.start}>"

    @property
    def prefix(self) -> str:
        return self.qname.rpartition(":")[0]

    def attr(self, local: str, ns: str = "") -> str | None:
        if not ns:  # an attribute in no namespace is never prefixed (a prefix cannot be bound to no namespace)
            return self.attrs.get(local)
        for prefix in _prefixes(self.nsmap, ns):  # an attribute in ns is written with a prefix bound to it
            value = self.attrs.get(f"{prefix}:{local}")
            if value is not None:
                return value
        return None

    def get(self, local: str) -> str:
        """An unqualified attribute's value, or the empty text."""
        return self.attr(local) or ""

    def findall(self, local: str, ns: str = MAIN_NS) -> list["XNode"]:
        return [c for c in self.children if c.local == local and c.ns == ns]

    def find(self, local: str, ns: str = MAIN_NS) -> "XNode | None":
        return next(iter(self.findall(local, ns)), None)


_PREFIXES: dict[tuple[int, str], tuple[Mapping[str, str], tuple[str, ...]]] = {}


def _prefixes(nsmap: Mapping[str, str], ns: str) -> tuple[str, ...]:
    """The prefixes ``nsmap`` binds to ``ns``, in its order (found once per
    map: the elements of a part share their parent's map)."""
    held = _PREFIXES.get((id(nsmap), ns))
    if held is None or held[0] is not nsmap:
        if len(_PREFIXES) >= 4096:
            _PREFIXES.clear()
        held = _PREFIXES[(id(nsmap), ns)] = (nsmap, tuple(p for p, uri in nsmap.items()
                                                         if uri == ns and p and p != "xmlns"))
    return held[1]


@dataclass(frozen=True)
class XmlDoc:
    part: str
    text: str
    encoding: str
    root: XNode

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)

    def inner_text(self, node: XNode) -> str:
        inner = self.text[node.inner_start:node.inner_end]
        if "<" not in inner:  # text alone (a title, a count): only references to resolve
            return unescape(inner)
        pieces = re.split(r"(<!\[CDATA\[.*?\]\]>|<[^>]*>)", inner, flags=re.S)
        return "".join(p[9:-3] if p.startswith("<![CDATA[") else "" if p.startswith("<") else unescape(p)
                       for p in pieces)


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str
    parent: XNode | None = field(default=None, compare=False)  # the element an insertion ends (insert_child)
    tag_of: XNode | None = field(default=None, compare=False)  # the element whose start tag it edits (set_attr)


_SKIPPED = [None]  # the stack's entry for an element skipped, or inside one (see parse_xml)
_START_TAG = re.compile(r"<[^\s/>!?]+(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s*(/?)>")
_ATTR = re.compile(r"([^\s=/>]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")


def _parser(part: str, encoding: str | None, separator: str | None = None) -> Any:
    """An expat parser that refuses a document type declaration (and with it any entity)."""
    parser = expat.ParserCreate(encoding, separator)

    def refuse(*_: object) -> None:
        raise WorkbookFileError(f"part {part}: a document type declaration is not allowed")
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    return parser


def decoded(data: bytes, part: str) -> tuple[str, str]:
    """A part's text and the encoding it is in (UTF-8, with or without a
    byte order mark, or UTF-16), as :func:`parse_xml` reads it."""
    encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else \
        "utf-16" if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8"
    declared = re.match(rb"^(?:\xef\xbb\xbf)?<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)", data)
    if declared and declared.group(1).lower().replace(b"-", b"") not in (b"utf8", b"utf16"):
        raise WorkbookFileError(f"part {part} is in {declared.group(1).decode()}; Open XML parts are UTF-8 or UTF-16")
    try:
        return data.decode(encoding), encoding
    except (UnicodeError, LookupError, ValueError) as exc:
        raise WorkbookFileError(f"part {part} is not usable XML ({exc})") from None


def parse_xml(data: bytes, part: str, skip: frozenset[str] = frozenset(),
              keep: Callable[[str, Mapping[str, str]], object] | None = None) -> XmlDoc:
    """Parse one XML part safely (expat: no document type, so no entities) and
    locate every element in its text.

    expat is the only tokenizer: each element is placed where expat reports
    its start and end tags (byte offsets of the part as UTF-8, turned into
    offsets of its text), and a start tag's extent is matched only there.

    ``skip``: local names of elements that are read (the whole part is still
    parsed and checked) but neither located nor listed among their parent's
    children, nor is anything inside them: for a writer that only appends to
    a long list and knows its items from elsewhere (the list of sheets, of
    relationships, of content types).

    ``keep``: of the elements ``skip`` names, those for which ``keep(local
    name, attributes)`` is true are located and listed after all, with
    everything inside them: for a writer that changes a few items of a long
    list it knows (undo, the sheet a form replaces)."""
    text, encoding = decoded(data, part)
    utf8 = data[3:] if encoding == "utf-8-sig" else data if encoding == "utf-8" else text.encode("utf-8")
    ascii_only = utf8.isascii()
    spot = [0, 0]  # the last (byte, character) offset converted: events come in document order

    def char_at(byte: int) -> int:
        if ascii_only:
            return byte
        b0, c0 = spot
        spot[0], spot[1] = byte, c0 + len(utf8[b0:byte].decode("utf-8"))
        return spot[1]

    # an open element: [qname, ns, local, attrs, nsmap, start, inner_start, children]
    stack: list[list] = []
    done: list[XNode] = []
    top_nsmap = {"xml": XML_NS}
    parser = _parser(part, "utf-8")

    def start(qname: str, attrs: dict[str, str]) -> None:
        if skip and ((stack and stack[-1] is _SKIPPED) or (
                (local := qname.rpartition(":")[2]) in skip and (keep is None or not keep(local, attrs)))):
            stack.append(_SKIPPED)
            return
        at = char_at(parser.CurrentByteIndex)
        # the start tag ends at the first ">" unless that one lies in an attribute value (an odd number of
        # double quotes before it, or single quotes used): then the tag is matched whole
        end = text.find(">", at) + 1
        tag = text[at:end]
        if end <= 0 or tag.count('"') % 2 or "'" in tag or not tag.startswith(qname, 1):
            found = _START_TAG.match(text, at)
            if found is None or not text.startswith(qname, at + 1):
                raise WorkbookFileError(f"part {part}: its markup could not be located safely for editing")
            end, tag = found.end(), found.group(0)
        nsmap = stack[-1][4] if stack else top_nsmap
        if attrs and "xmlns" in tag:  # declares namespaces of its own (else shares its parent's)
            declared = {k[6:]: v for k, v in attrs.items() if k == "xmlns" or k.startswith("xmlns:")}
            if declared:
                nsmap = {**nsmap, **declared}
        prefix, _, local = qname.rpartition(":")
        if prefix and prefix not in nsmap:
            raise WorkbookFileError(f"part {part}: prefix {prefix!r} is not declared")
        if text[end - 2] == "/":  # <x/>: whole already
            node = XNode(qname, nsmap.get(prefix, ""), local, attrs, nsmap, at, end, end, end, ())
            (stack[-1][7] if stack else done).append(node)
            stack.append([None])
        else:
            stack.append([qname, nsmap.get(prefix, ""), local, attrs, nsmap, at, end, []])

    def finish(qname: str) -> None:
        open_ = stack.pop()
        if open_[0] is None:  # (an element already whole, or one skipped)
            return
        q, ns, local, attrs, nsmap, s0, inner, children = open_
        at = char_at(parser.CurrentByteIndex)
        close = text.find(">", at)
        if not text.startswith("</", at) or close < 0:
            raise WorkbookFileError(f"part {part}: its markup could not be located safely for editing")
        node = XNode(q, ns, local, attrs, nsmap, s0, inner, at, close + 1, tuple(children))
        (stack[-1][7] if stack else done).append(node)

    parser.StartElementHandler = start
    parser.EndElementHandler = finish
    try:
        parser.Parse(utf8, True)
    except expat.ExpatError as exc:
        raise WorkbookFileError(f"part {part} is not usable XML ({exc})") from None
    if len(done) != 1 or stack:
        raise WorkbookFileError(f"part {part}: its markup could not be located safely for editing")
    return XmlDoc(part, text, encoding, done[0])


def check_well_formed(data: bytes, part: str) -> None:
    """Check that ``data`` is well-formed XML without a document type (expat,
    no tree built, every prefix bound): for parts this program edited as text."""
    parser = _parser(part, None, " ")
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise WorkbookFileError(f"part {part} is not usable XML ({exc})") from None


def end_tag_at(text: str, qname: str, inner_end: int, end: int) -> bool:
    """Whether ``text`` holds the end tag of a ``qname`` element from
    ``inner_end`` to ``end`` (white space alone before its ``>``)."""
    return text.startswith("</" + qname, inner_end) and text[end - 1] == ">" and \
        not text[inner_end + 2 + len(qname):end - 1].strip()


def inserted_well_formed(doc: XmlDoc, edits: Sequence[Edit], part: str) -> bool:
    """Whether ``doc`` (a well-formed part) stays well-formed with ``edits``
    told from the edits alone: each one appends its fragment as the last
    content of a located element (:func:`insert_child`), where the element's
    end tag is found in the text, or sets an attribute in the start tag of
    a located element (:func:`set_attr`). Each fragment is checked to be
    well-formed XML, every prefix bound, where it goes, and each start tag
    with its attributes set (no attribute twice, each value well-formed), in
    the element's namespaces, as :func:`check_well_formed` checks a part.
    Raised as that check raises for one that is not; False for an edit of
    another kind (the part edited is then checked whole).
    An append to a long campaign's lists parses what it adds and the start
    tags it changes, not the thousand items around them."""
    text = doc.text
    tags: dict[int, tuple[XNode, list[Edit]]] = {}
    for edit in edits:
        node = edit.tag_of
        if node is not None:
            if not node.start < edit.start <= edit.end < node.inner_start:
                return False
            tags.setdefault(id(node), (node, []))[1].append(edit)
            continue
        parent = edit.parent
        if parent is None:
            return False
        if edit.start == edit.end == parent.inner_end and parent.inner_start != parent.end:
            if not end_tag_at(text, parent.qname, parent.inner_end, parent.end):
                return False
        elif not (edit.start == parent.start and edit.end == parent.end and parent.inner_start == parent.end
                  and text[parent.start:parent.end].endswith("/>")):
            return False
        check_well_formed(f"<_{_scope(parent)}>{edit.text}</_>".encode("utf-8"), part)
    for node, changes in tags.values():
        tag = apply_edits(text[node.start:node.inner_start], [Edit(e.start - node.start, e.end - node.start, e.text)
                                                              for e in changes])
        closed = tag if tag.endswith("/>") else tag[:-1] + "/>"
        check_well_formed(f"<_{_scope(node)}>{closed}</_>".encode("utf-8"), part)
    return True


def _scope(node: XNode) -> str:
    """The namespace declarations in scope at ``node`` (its own among them), as attributes."""
    return "".join(f' xmlns{":" + prefix if prefix else ""}="{escape_attr(uri)}"'
                   for prefix, uri in node.nsmap.items() if prefix != "xml")


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits; insertions at one point keep their given order."""
    out: list[str] = []
    pos = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < pos:
            raise WorkbookFileError("internal error: overlapping XML edits (a bug in Musterroll)")
        out += [text[pos:edit.start], edit.text]
        pos = edit.end
    return "".join(out) + text[pos:]


def start_tag(text: str, at: int) -> tuple[str, dict[str, str], int, bool] | None:
    """The start tag at ``at`` of a text that is well-formed XML (a part the
    gate passed): its name, its attributes as expat gives them (white space
    in a value made spaces, references resolved), where it ends and whether
    it is empty (``<x/>``); None when no start tag is there, or one names an
    attribute twice."""
    found = _START_TAG.match(text, at)
    if found is None:
        return None
    tag = found.group(0)
    name = re.match(r"<([^\s/>]+)", tag).group(1)  # type: ignore[union-attr]
    attrs: dict[str, str] = {}
    for m in _ATTR.finditer(tag, len(name) + 1):
        raw = m.group(2) if m.group(2) is not None else m.group(3)
        raw = raw.replace("\r\n", " ").replace("\r", " ").replace("\n", " ").replace("\t", " ")
        if m.group(1) in attrs:
            return None
        attrs[m.group(1)] = unescape(raw)
    return name, attrs, found.end(), found.group(1) == "/"


def set_attr(doc: XmlDoc, node: XNode, qname: str, value: str) -> Edit:
    """An edit that sets attribute ``qname`` of ``node``, touching only its value."""
    tag = doc.text[node.start:node.inner_start]
    for m in _ATTR.finditer(tag, len(node.qname) + 1):
        if m.group(1) == qname:
            group = 2 if m.group(2) is not None else 3
            return Edit(node.start + m.start(group), node.start + m.end(group), escape_attr(value), tag_of=node)
    cut = node.start + len(tag) - (2 if tag.endswith("/>") else 1)
    return Edit(cut, cut, f' {qname}="{escape_attr(value)}"', tag_of=node)


def insert_child(doc: XmlDoc, parent: XNode, fragment: str) -> Edit:
    """An edit that appends ``fragment`` as the last content of ``parent``."""
    if parent.inner_start == parent.end:  # <x/>: open it up
        tag = doc.text[parent.start:parent.end]
        return Edit(parent.start, parent.end, f"{tag[:-2].rstrip()}>{fragment}</{parent.qname}>", parent)
    return Edit(parent.inner_end, parent.inner_end, fragment, parent)


def in_scope(fragment: str, context: XNode, ns: str = MAIN_NS) -> str:
    """Make an unprefixed ``fragment`` land in ``ns`` wherever it is inserted."""
    if context.nsmap.get("") == ns:
        return fragment
    return re.sub(r"^<([^\s/>]+)", lambda m: f'<{m.group(1)} xmlns="{ns}"', fragment, count=1)


def prefix_for(node: XNode, ns: str) -> tuple[str, str]:
    """A prefix bound to ``ns`` at ``node`` and the declaration it needs, if any."""
    found = next((p for p, uri in node.nsmap.items() if uri == ns and p), None)
    if found:
        return found, ""
    prefix = next(p for p in ("r", "mr_r", "mr_r2") if p not in node.nsmap)
    return prefix, f' xmlns:{prefix}="{ns}"'


def qualified(node: XNode, local: str) -> str:
    return f"{node.prefix}:{local}" if node.prefix else local
