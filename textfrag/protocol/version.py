"""The batch protocol's version, alone: what the command line's help names without loading the protocol."""

from __future__ import annotations

#: the protocol's version: a request names it; an answer carries it. A new field is added within a
#: version; a field's meaning changes only with a new one (the manual's reference/protocol page)
PROTOCOL = 1
