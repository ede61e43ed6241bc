#!/usr/bin/env python
import os
import sys

# Pure commands that run before Django is set up (tournaments/formats/cli.py says why).
LIGHT_COMMANDS = {"swiss", "bracket", "standings"}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in LIGHT_COMMANDS:
        from tournaments.formats import cli

        status = cli.run(sys.argv)
        if status is not None:
            sys.exit(status)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
