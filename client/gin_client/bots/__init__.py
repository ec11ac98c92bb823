"""The bots, each deciding from a seat's view alone: the reference bot (reference.py: a pure
`decide(view)` and the loop that plays seats by their tokens), the account bot (account.py, the
`gin-bot` command: one player token, every game at once, the house bot's way), and the house bot's
five levels (levels.py) with what it reads of the table (model.py) and its look-ahead (search.py)."""
