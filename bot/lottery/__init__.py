"""The lottery turn driver: the games whose turns are the French Loto draws (Space Chess).

Fetching the FDJ results (`poll`), applying each draw once to every running lottery game
(`apply`), the turn post it makes (`turn_post`), the in-memory poll schedule (`scheduler`) and the
game masters' draw commands (`commands`). Nothing outside this package knows a game turns on draws.
"""


def lottery_kinds() -> tuple[str, ...]:
    """The kinds of game the draws advance (their driver in the static game list): a pass over every
    running game asks the store for these only, not for every game to drop the others."""
    from bot.games import games

    return tuple(game.kind for game in games() if game.driver == "lottery")


def is_lottery_game(kind: str) -> bool:
    """Whether the draws advance games of this kind."""
    return kind in lottery_kinds()
