"""What a change does to the quotes of the files it touches: ``textfrag impact``.

A change (a range of commits, the index, the work tree) is read from git once (textfrag.impact.changes);
each quote of a file it touches is judged by the one verdict against both sides of the change
(textfrag.impact.predict), and the report says, on the changed lines, which documents show them and what
``check`` will say once the change is in (textfrag.impact.report).

May import: every layer below the command line's (``textfrag.guard`` and under).
"""
