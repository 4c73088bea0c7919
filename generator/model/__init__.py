"""Model: what a game is — collections, decks of cards, routes, tables."""
