"""``python -m app.cli``: the ``adjudicator`` command, for a checkout without the script."""

from app.cli import main

main()
