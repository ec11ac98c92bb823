"""The `gin` command line: main.py (its arguments and main) and the modules its commands are made
of (cards, the token file, a game as shown, a seat's, a player's and a tournament's commands); the bots read
cards and views with cards.py and display.py."""
