"""Deep copies of plain data (dicts, lists, strings, numbers, booleans, None): the match state
and views are made of nothing else."""
from __future__ import annotations

import marshal


def plain_copy(value):
    """A deep copy of plain data. marshal copies it in C and such data round-trips exactly; it is
    about six times faster than copy.deepcopy, which every view and every save call for."""
    return marshal.loads(marshal.dumps(value))
