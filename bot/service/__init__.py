"""The transport-independent service layer; importing it registers every command."""

from bot.service import draws, gm, lifecycle, orders, spacechess, views  # noqa: F401  (modules register their commands)
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Attachment, Button, Message, Reply, ServiceError, Visibility

__all__ = ["Attachment", "Button", "Context", "GameService", "Message", "Reply", "ServiceError", "Visibility"]
