"""What the package's HTML pages share: the head and the Content-Security-Policy.

The replay page (:mod:`bakersdozen.replay`), the survey report
(:mod:`bakersdozen.report`) and the play page (:mod:`bakersdozen.play.page`)
are each one self-contained HTML5 document that begins with :data:`HEAD`
and declares a policy made by :func:`policy`: ``default-src 'none'``, then
only what the page needs, its inline style and script allowed by their
SHA-256 hashes (:func:`csp_hash`; CSP Level 2, W3C 2016, section 4.2.4).
"""

from __future__ import annotations

import base64
import hashlib
from typing import Final

__all__ = ["HEAD", "csp_hash", "policy"]

#: The start of every page, up to ``</head>``: a template for :meth:`str.format`
#: with ``csp`` (see :func:`policy`), ``title`` (HTML, already escaped) and ``css``.
HEAD: Final = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
"""


def csp_hash(text: str) -> str:
    """The source expression that allows the inline *text*: ``'sha256-<base64>'``.

    The hash is over *text* encoded as UTF-8, exactly as it stands between
    the ``<style>`` or ``<script>`` tags.
    """
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def policy(*allowed: str) -> str:
    """A Content-Security-Policy that refuses everything but the directives *allowed*.

    ``default-src 'none'``, then *allowed* in order (``"img-src data:"``,
    ``f"style-src {csp_hash(css)}"``, ...), then ``base-uri 'none'`` and
    ``form-action 'none'``, joined by ``"; "``.
    """
    return "; ".join(("default-src 'none'", *allowed, "base-uri 'none'", "form-action 'none'"))
