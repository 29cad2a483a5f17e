"""The lottery turn driver: the games whose turns are the French Loto draws (Space Chess).

Fetching the FDJ results (`poll`), applying each draw once to every running lottery game
(`apply`), the turn post it makes (`turn_post`), the in-memory poll schedule (`scheduler`) and the
game masters' draw commands (`commands`). Nothing outside this package knows a game turns on draws.
"""


def is_lottery_game(kind: str) -> bool:
    """Whether the draws advance games of this kind (their driver in the static game list)."""
    from bot.games import games

    return any(game.kind == kind and game.driver == "lottery" for game in games())
