"""Ways into a seat besides the first token: link keys carried by mails, and the seat's list of
bearer tokens (each revocable, for a lost phone). `routes.py` is the JSON API, `links.py` the logic."""
