"""The one base of every error the tools explain to a person.

A ``ToolError``'s message names the file (and line, where there is one) and says what
to do. The MkDocs glue (tools/site/hooks.py) turns it into a build error and the
command line (tools/__main__.py) into one message and exit status 1: neither shows
a traceback for it.
"""

from __future__ import annotations


class ToolError(Exception):
    """Bad input or a failed step, with a message meant for the person who ran it."""
