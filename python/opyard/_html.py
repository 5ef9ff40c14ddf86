"""HTML tables for notebooks: ``dispatcher.explain``'s result and ``viz.dispatch_table_html``.

Escaping is written out here rather than taken from the standard library's ``html``
module: that module loads its table of 2,200 named entities on import, and the
dispatcher (which ``import opyard`` loads) needs only the five characters below.
"""

import typing

if typing.TYPE_CHECKING:  # annotations only: nothing loads at run time
    from collections.abc import Sequence

__all__ = ["HTML", "escape", "table"]

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})

# One small style sheet, scoped to the table's class, so that the table reads the same in
# Jupyter's light and dark themes and in a plain browser.
_STYLE = (
    "<style>"
    "table.opyard{border-collapse:collapse;font-family:monospace;font-size:12px}"
    "table.opyard caption{text-align:left;font-weight:bold;padding:4px 0}"
    "table.opyard th,table.opyard td{border:1px solid #999;padding:2px 6px;text-align:left}"
    "table.opyard tr.kernel td{background:rgba(80,160,80,.18)}"
    "table.opyard tr.fallthrough td,table.opyard tr.missing td{color:#888}"
    "table.opyard tr.chosen td{background:rgba(70,120,220,.25);font-weight:bold}"
    "</style>"
)


def escape(value: object) -> str:
    """``str(value)`` with ``& < > " '`` replaced by their HTML entities."""
    return str(value).translate(_ESCAPES)


class HTML(str):
    """An HTML fragment: a ``str`` that notebooks (IPython's display) render as HTML."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


def table(caption: object, header: "Sequence[object] | None", rows: "Sequence[Sequence[object]]",
          row_classes: "Sequence[str]" = (), *, style: bool = True) -> "HTML":
    """An HTML table: ``header`` a sequence of column names (or None), ``rows`` of cell values (escaped
    here), ``row_classes`` an optional CSS class per row (``kernel``, ``fallthrough``, ``missing``,
    ``chosen``); ``style=False`` leaves out the style sheet (a second table in the same output)."""
    classes = list(row_classes) + [""] * (len(rows) - len(row_classes))
    out = [_STYLE if style else "", '<table class="opyard">', f"<caption>{escape(caption)}</caption>"]
    if header is not None:
        out += ["<thead><tr>", *(f"<th>{escape(h)}</th>" for h in header), "</tr></thead>"]
    out.append("<tbody>")
    for row, cls in zip(rows, classes):
        out.append(f'<tr class="{escape(cls)}">' if cls else "<tr>")
        out += [f"<td>{escape(cell)}</td>" for cell in row]
        out.append("</tr>")
    out.append("</tbody></table>")
    return HTML("".join(out))
