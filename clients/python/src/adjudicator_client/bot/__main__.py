"""``python -m adjudicator_client.bot``: the ``adjudicator-bot`` command."""

from adjudicator_client.bot.cli import main

raise SystemExit(main())
