"""`python -m bot`: build the settings once and hand them to the command line."""

from bot.cli import main

if __name__ == "__main__":
    main()
