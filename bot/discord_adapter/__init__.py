"""The Discord adapter: a thin layer turning interactions into service calls and replies into messages.

No game behaviour lives here; everything is decided by the service layer, which is tested
without Discord. This package only translates between the two worlds.
"""
