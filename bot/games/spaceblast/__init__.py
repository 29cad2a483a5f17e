"""SpaceBlast in the bot: its new-game options, how a turn reads, the arena and the ship cards.

Orders are secret until the turn resolves (the engine seals them), so everything here draws from
public events and the public view; a ship's own orders and powers reach only its owner, through
`view_for` in its sheet and the private part of its order replies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games import Presenter, register_presenter
from bot.service.commands import Option
from bot.service.replies import Attachment, Button, Message, Reply
from engine.core.protocol import PUBLIC, Audience, Event, GameRules
from renders.spaceblast.animation import render_turn_gif
from renders.spaceblast.board import render_board
from renders.spaceblast.sheet import render_sheet

#: events after which the arena is worth posting: a resolved turn, the start
_BOARD_EVENTS = ("revealed", "started")
#: not worded in the channel: that a ship gave orders (the status message shows it), and the moves
#: of ships and missiles (the turn's animation and the board show them), and the animation's frames
_QUIET_EVENTS = ("submitted", "frames", "moved", "missile_moved")
VARIANT_OPTIONS = ("asteroids", "powers")
#: the resolution's phases as the animation captions them (the images' words are English, like the board's)
PHASE_CAPTIONS = {"reveal": "Orders revealed", "rotation": "1. Rotation", "mines": "2. Mines",
                  "movement": "3. Movement", "missiles": "4. Missiles", "firing": "5. Firing",
                  "damage": "6. Damage", "end": "Game over"}


class SpaceBlastPresenter(Presenter):
    kind = "spaceblast"
    create_options = (
        Option("radius", "integer", min_value=4, max_value=9),
        Option("asteroids", "boolean"),
        Option("powers", "boolean"),
        Option("bigbang", choices=("off", "1", "3")),
    )

    def create_document(self, options: Mapping[str, Any]) -> dict[str, Any]:
        variants = [name for name in VARIANT_OPTIONS if options.get(name)]
        bigbang = options.get("bigbang", "off")
        if bigbang != "off":
            variants.append("bigbang3" if bigbang == "3" else "bigbang")
        return {"radius": options.get("radius", 6), "variants": variants}

    def describe(self, rules: GameRules, events: Sequence[Event]) -> list[Message]:
        return [Message(f"event.spaceblast.{event.kind}", dict(event.params)) for event in events
                if event.kind not in _QUIET_EVENTS]

    def order_buttons(self, rules: GameRules, state: Any, actor: str) -> tuple[Button, ...]:
        """Orders stay changeable until the deadline; "ready" says they are final (SB-19)."""
        return (Button(Message("button.sb_ready"), "sb ready"),)

    def images(self, rules: GameRules, state: Any, events: Sequence[Event]) -> list[Attachment]:
        if not any(event.kind in _BOARD_EVENTS for event in events):
            return []
        view = rules.view(state)
        files = [Attachment("arena.png", render_board(view, view["radius"], title=_title(view)))]
        frames = next((event.params["views"] for event in events if event.kind == "frames"), None)
        if frames:  # one frame per phase, captioned with it (SB-7..SB-12), so none is merged away
            captioned = [{**frame, "caption": PHASE_CAPTIONS.get(frame.get("frame"), "")} for frame in frames]
            files.append(Attachment("resolution.gif", render_turn_gif(captioned, view["radius"], title=_title(view))))
        return files

    def board(self, rules: GameRules, state: Any) -> list[Attachment]:
        view = rules.view(state)
        return [Attachment("arena.png", render_board(view, view["radius"], title=_title(view)))]

    def sheet(self, rules: GameRules, state: Any, actor: str, language: str, viewer: Audience = PUBLIC) -> Reply:
        """The ship's card; its powers and this turn's orders only for its owner (`view_for`)."""
        view = rules.view_for(state, viewer)
        ship = view["ships"][actor]
        own = view.get("own", {})
        card = Attachment(f"ship-{actor}.png", render_sheet(view, actor, powers=own.get("powers", ())))
        params = {"id": actor, "hits": ship["hits"], "score": ship["score"], "turns": ship["turns"],
                  "brakes": ship["brakes"], "missiles": ship["missiles"], "mines": ship["mines"]}
        lines = [Message("sb.sheet", params)]
        if "orders" in own:
            lines.append(Message("sb.sheet.orders", {"orders": own["orders"] or "none"}))
        if "jump" in own:  # a time jump's holder sees what everyone plays, and may change its own
            lines.append(Message("sb.sheet.jump", {"orders": own["jump"]}))
        return Reply(tuple(lines), files=(card,))

    def status_lines(self, rules: GameRules, state: Any) -> list[Message]:
        """Each ship: score, hull, tokens left, and whether its orders are final this turn."""
        view = rules.view(state)
        waiting = set(rules.waiting_on(state))
        lines = []
        for ident, ship in view["ships"].items():
            if not ship["alive"]:
                key = "sb.status.disqualified" if ship.get("disqualified") else "sb.status.gone"
                lines.append(Message(key, {"id": ident, "score": ship["score"]}))
                continue
            lines.append(Message("sb.status.ship", {
                "id": ident, "score": ship["score"], "hits": ship["hits"], "at": ship["at"], "facing": ship["facing"],
                "turns": ship["turns"], "brakes": ship["brakes"], "missiles": ship["missiles"],
                "mines": ship["mines"], "ready": Message("sb.status.waiting" if ident in waiting else "sb.status.ready"),
            }))
        return lines


def _title(view: Mapping[str, Any]) -> str:
    return f"SpaceBlast — turn {view.get('turn', 0)}"


SPACEBLAST_PRESENTER = register_presenter(SpaceBlastPresenter())
